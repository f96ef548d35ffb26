#include "CEditLine.h"

int carevoice_el_set_editor(EditLine *el, const wchar_t *mode) {
    return el_wset(el, EL_EDITOR, mode);
}

int carevoice_el_set_prompt(EditLine *el, carevoice_el_wprompt_t prompt) {
    /* Through el_wset the callback is taken as returning wchar_t *. */
    return el_wset(el, EL_PROMPT, prompt);
}

int carevoice_el_set_getcfn(EditLine *el, el_rfunc_t read_char) {
    return el_wset(el, EL_GETCFN, read_char);
}

int carevoice_el_set_clientdata(EditLine *el, void *data) {
    return el_wset(el, EL_CLIENTDATA, data);
}

void *carevoice_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (el_wget(el, EL_CLIENTDATA, &data) != 0)
        return NULL;
    return data;
}

int carevoice_el_set_signal(EditLine *el, int handle_signals) {
    return el_wset(el, EL_SIGNAL, handle_signals);
}

int carevoice_el_setty_edit_mode(EditLine *el, const wchar_t *flag) {
    /* "-d" selects the termios libedit uses while a line is being edited. */
    return el_wset(el, EL_SETTY, L"-d", flag, (const wchar_t *)NULL);
}

int carevoice_el_set_history(EditLine *el, HistoryW *history) {
    return el_wset(el, EL_HIST, history_w, history);
}

int carevoice_history_set_size(HistoryW *history, int size) {
    HistEventW event;
    return history_w(history, &event, H_SETSIZE, size);
}

int carevoice_history_set_unique(HistoryW *history, int unique) {
    HistEventW event;
    return history_w(history, &event, H_SETUNIQUE, unique);
}

int carevoice_history_enter(HistoryW *history, const wchar_t *line) {
    HistEventW event;
    return history_w(history, &event, H_ENTER, line);
}
