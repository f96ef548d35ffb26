#include <stdlib.h>
#include <string.h>
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/jsgf.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/logmath.h>
/* After the real headers, so the compiler checks every declaration in ours. */
#include "CPocketSphinx.h"

char *carevoice_jsgf_words(const char *jsgf_source)
{
    jsgf_t *jsgf = jsgf_parse_string(jsgf_source, NULL);
    if (jsgf == NULL)
        return NULL;
    jsgf_rule_t *rule = jsgf_get_public_rule(jsgf);
    if (rule == NULL) {
        jsgf_grammar_free(jsgf);
        return NULL;
    }
    /* Only the word list matters, so any log base will do. */
    logmath_t *lmath = logmath_init(1.0001, 0, 0);
    fsg_model_t *fsg = lmath ? jsgf_build_fsg(jsgf, rule, lmath, 1.0f) : NULL;
    char *out = NULL;
    if (fsg != NULL) {
        size_t total = 1;
        for (int i = 0; i < fsg_model_n_word(fsg); i++)
            total += strlen(fsg_model_word_str(fsg, i)) + 1;
        out = malloc(total);
        if (out != NULL) {
            char *p = out;
            for (int i = 0; i < fsg_model_n_word(fsg); i++) {
                const char *w = fsg_model_word_str(fsg, i);
                size_t n = strlen(w);
                memcpy(p, w, n);
                p += n;
                *p++ = '\n';
            }
            *p = '\0';
        }
        fsg_model_free(fsg);
    }
    if (lmath)
        logmath_free(lmath);
    jsgf_grammar_free(jsgf);
    return out;
}
