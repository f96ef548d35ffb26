#include <stdlib.h>
#include <string.h>
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/jsgf.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/fe.h>
#include <sphinxbase/ckd_alloc.h>
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

struct carevoice_vad_s {
    fe_t *fe;
    mfcc_t **cepstra;
    int32 capacity;
};

/* Frames one call may produce: a 20 ms block gives two or three, but the frames
   held back before speech (-vad_prespeech) all come out when speech starts. */
#define CAREVOICE_VAD_FRAMES 256

carevoice_vad_t *carevoice_vad_init(cmd_ln_t *config)
{
    fe_t *fe = fe_init_auto_r(config);
    if (fe == NULL)
        return NULL;
    carevoice_vad_t *vad = calloc(1, sizeof(*vad));
    if (vad == NULL) {
        fe_free(fe);
        return NULL;
    }
    vad->fe = fe;
    vad->capacity = CAREVOICE_VAD_FRAMES;
    vad->cepstra = (mfcc_t **)ckd_calloc_2d(vad->capacity, fe_get_output_size(fe), sizeof(mfcc_t));
    return vad;
}

void carevoice_vad_start_utt(carevoice_vad_t *vad)
{
    fe_start_utt(vad->fe);
}

void carevoice_vad_end_utt(carevoice_vad_t *vad)
{
    int32 n = 0;
    fe_end_utt(vad->fe, vad->cepstra[0], &n);
}

int carevoice_vad_process(carevoice_vad_t *vad, const int16_t *samples, size_t n_samples)
{
    const int16 *p = samples;
    size_t left = n_samples;
    while (left > 0) {
        int32 frames = vad->capacity;
        size_t before = left;
        if (fe_process_frames(vad->fe, &p, &left, vad->cepstra, &frames, NULL) < 0)
            return -1;
        if (left == before && frames == 0)
            break; /* fewer samples than a frame: kept for the next call */
    }
    return fe_get_vad_state(vad->fe) ? 1 : 0;
}

void carevoice_vad_free(carevoice_vad_t *vad)
{
    if (vad == NULL)
        return;
    ckd_free_2d((void **)vad->cepstra);
    fe_free(vad->fe);
    free(vad);
}
