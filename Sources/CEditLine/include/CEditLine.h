#pragma once
#include <histedit.h>
#include <wchar.h>

/*
 * el_wset, el_wget and history_w are variadic, which Swift cannot call.
 * These shims fix one argument list each. All strings are wide so that
 * nothing depends on the C locale's narrow encoding.
 */

/* Prompt callback: returns the prompt as a wide string owned by the caller. */
typedef wchar_t *(*carevoice_el_wprompt_t)(EditLine *);

int carevoice_el_set_editor(EditLine *el, const wchar_t *mode);
int carevoice_el_set_prompt(EditLine *el, carevoice_el_wprompt_t prompt);
int carevoice_el_set_getcfn(EditLine *el, el_rfunc_t read_char);
int carevoice_el_set_clientdata(EditLine *el, void *data);
void *carevoice_el_get_clientdata(EditLine *el);
int carevoice_el_set_signal(EditLine *el, int handle_signals);
/* Applies one stty-style flag (e.g. L"-isig") to the editing-mode termios only. */
int carevoice_el_setty_edit_mode(EditLine *el, const wchar_t *flag);
int carevoice_el_set_history(EditLine *el, HistoryW *history);

int carevoice_history_set_size(HistoryW *history, int size);
int carevoice_history_set_unique(HistoryW *history, int unique);
int carevoice_history_enter(HistoryW *history, const wchar_t *line);
