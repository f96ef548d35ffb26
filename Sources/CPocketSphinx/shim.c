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
#include <sphinxbase/feat.h>
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

/* Frames one call may produce: a 10 ms block gives one or two, but the frames
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

void carevoice_vad_start_stream(carevoice_vad_t *vad)
{
    fe_start_stream(vad->fe);
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

struct carevoice_fsg_s {
    jsgf_t *jsgf;
    logmath_t *lmath;
    fsg_model_t *fsg;
};

carevoice_fsg_t *carevoice_fsg_init(const char *jsgf_source)
{
    carevoice_fsg_t *g = calloc(1, sizeof(*g));
    if (g == NULL)
        return NULL;
    jsgf_rule_t *rule;
    if ((g->jsgf = jsgf_parse_string(jsgf_source, NULL)) == NULL
        || (rule = jsgf_get_public_rule(g->jsgf)) == NULL
        || (g->lmath = logmath_init(1.0001, 0, 0)) == NULL
        || (g->fsg = jsgf_build_fsg(g->jsgf, rule, g->lmath, 1.0f)) == NULL) {
        carevoice_fsg_free(g);
        return NULL;
    }
    return g;
}

void carevoice_fsg_free(carevoice_fsg_t *g)
{
    if (g == NULL)
        return;
    fsg_model_free(g->fsg);
    if (g->lmath)
        logmath_free(g->lmath);
    if (g->jsgf)
        jsgf_grammar_free(g->jsgf);
    free(g);
}

/* Adds every state reachable from those in `set` by null transitions. */
static void fsg_null_closure(fsg_model_t *fsg, uint8 *set)
{
    int n = fsg_model_n_state(fsg);
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int s = 0; s < n; s++) {
            if (!set[s])
                continue;
            for (fsg_arciter_t *it = fsg_model_arcs(fsg, s); it; it = fsg_arciter_next(it)) {
                fsg_link_t *link = fsg_arciter_get(it);
                if (fsg_link_wid(link) < 0 && !set[fsg_link_to_state(link)]) {
                    set[fsg_link_to_state(link)] = 1;
                    changed = 1;
                }
            }
        }
    }
}

int carevoice_fsg_prefix(carevoice_fsg_t *g, const char *words)
{
    fsg_model_t *fsg = g->fsg;
    int n = fsg_model_n_state(fsg);
    uint8 *here = calloc(n, 1), *next = calloc(n, 1);
    char *text = strdup(words);
    int status = 0;
    if (here == NULL || next == NULL || text == NULL)
        goto done;
    here[fsg_model_start_state(fsg)] = 1;
    fsg_null_closure(fsg, here);
    char *save = NULL;
    for (char *word = strtok_r(text, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        int wid = fsg_model_word_id(fsg, word);
        if (wid < 0)
            goto done;
        memset(next, 0, n);
        int any = 0;
        for (int s = 0; s < n; s++) {
            if (!here[s])
                continue;
            for (fsg_arciter_t *it = fsg_model_arcs(fsg, s); it; it = fsg_arciter_next(it)) {
                fsg_link_t *link = fsg_arciter_get(it);
                if (fsg_link_wid(link) == wid) {
                    next[fsg_link_to_state(link)] = 1;
                    any = 1;
                }
            }
        }
        if (!any)
            goto done;
        fsg_null_closure(fsg, next);
        uint8 *swap = here;
        here = next;
        next = swap;
    }
    status = CAREVOICE_FSG_PREFIX;
    if (here[fsg_model_final_state(fsg)])
        status |= CAREVOICE_FSG_COMPLETE;
    for (int s = 0; s < n && !(status & CAREVOICE_FSG_GOES_ON); s++) {
        if (!here[s])
            continue;
        for (fsg_arciter_t *it = fsg_model_arcs(fsg, s); it; it = fsg_arciter_next(it)) {
            if (fsg_link_wid(fsg_arciter_get(it)) >= 0) {
                status |= CAREVOICE_FSG_GOES_ON;
                fsg_arciter_free(it);
                break;
            }
        }
    }
done:
    free(here);
    free(next);
    free(text);
    return status;
}

int carevoice_set_jsgf_with_odds(ps_decoder_t *ps, cmd_ln_t *config, const char *name, const char *jsgf_source,
                                 const char *const *words, const double *odds, size_t count)
{
    /* As ps_set_jsgf_string builds a search (first public rule, -lw), with the
       odds put on the arcs into the words before the search is made from it:
       fsg_search_init reads the arc probabilities once, into its lexicon tree. */
    jsgf_t *jsgf = jsgf_parse_string(jsgf_source, NULL);
    if (jsgf == NULL)
        return -1;
    jsgf_rule_t *rule = jsgf_get_public_rule(jsgf);
    logmath_t *lmath = ps_get_logmath(ps);
    float lw = (float)cmd_ln_float_r(config, "-lw");
    fsg_model_t *fsg = rule ? jsgf_build_fsg(jsgf, rule, lmath, lw) : NULL;
    if (fsg == NULL) {
        jsgf_grammar_free(jsgf);
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        int wid = fsg_model_word_id(fsg, words[i]);
        if (wid < 0 || odds[i] == 1.0)
            continue; /* not in this grammar, or nothing to change */
        int32 change = (int32)(logmath_log(lmath, odds[i]) * lw);
        for (int s = 0; s < fsg_model_n_state(fsg); s++) {
            for (fsg_arciter_t *it = fsg_model_arcs(fsg, s); it; it = fsg_arciter_next(it)) {
                fsg_link_t *link = fsg_arciter_get(it);
                if (fsg_link_wid(link) == wid)
                    link->logs2prob += change;
            }
        }
    }
    int result = ps_set_fsg(ps, name, fsg);
    fsg_model_free(fsg);
    jsgf_grammar_free(jsgf);
    return result;
}

struct carevoice_cmn_state_s {
    cmn_type_t type;
    int32 nframe;
    int size;
    mfcc_t mean[64], sum[64];
};

carevoice_cmn_state_t *carevoice_cmn_state_save(ps_decoder_t *ps)
{
    feat_t *feat = ps_get_feat(ps);
    if (feat == NULL || feat->cmn_struct == NULL || feat->cmn_struct->veclen > 64)
        return NULL;
    carevoice_cmn_state_t *state = calloc(1, sizeof(*state));
    if (state == NULL)
        return NULL;
    cmn_t *cmn = feat->cmn_struct;
    state->type = feat->cmn;
    state->nframe = cmn->nframe;
    state->size = cmn->veclen;
    memcpy(state->mean, cmn->cmn_mean, cmn->veclen * sizeof(mfcc_t));
    memcpy(state->sum, cmn->sum, cmn->veclen * sizeof(mfcc_t));
    return state;
}

void carevoice_cmn_state_restore(ps_decoder_t *ps, const carevoice_cmn_state_t *state)
{
    feat_t *feat = ps_get_feat(ps);
    if (feat == NULL || feat->cmn_struct == NULL || feat->cmn_struct->veclen != state->size)
        return;
    cmn_t *cmn = feat->cmn_struct;
    /* Batch or live: a decoder that has streamed stays live for good (sphinxbase's feat_cmn). */
    feat->cmn = state->type;
    cmn->nframe = state->nframe;
    memcpy(cmn->cmn_mean, state->mean, state->size * sizeof(mfcc_t));
    memcpy(cmn->sum, state->sum, state->size * sizeof(mfcc_t));
}

void carevoice_cmn_state_free(carevoice_cmn_state_t *state)
{
    free(state);
}

int carevoice_cmn_mean_get(ps_decoder_t *ps, float *mean, int size)
{
    feat_t *feat = ps_get_feat(ps);
    if (feat == NULL || feat->cmn_struct == NULL || feat->cmn_struct->veclen > size)
        return -1;
    cmn_t *cmn = feat->cmn_struct;
    for (int i = 0; i < cmn->veclen; i++)
        mean[i] = MFCC2FLOAT(cmn->cmn_mean[i]);
    return cmn->veclen;
}

int carevoice_cmn_mean_set(ps_decoder_t *ps, const float *mean, int size)
{
    feat_t *feat = ps_get_feat(ps);
    if (feat == NULL || feat->cmn_struct == NULL || feat->cmn_struct->veclen != size)
        return -1;
    cmn_t *cmn = feat->cmn_struct;
    /* As -cmninit sets it: the mean, and sums as if CMN_WIN frames had been heard. */
    for (int i = 0; i < size; i++) {
        cmn->cmn_mean[i] = FLOAT2MFCC(mean[i]);
        cmn->sum[i] = cmn->cmn_mean[i] * CMN_WIN;
    }
    cmn->nframe = CMN_WIN;
    return 0;
}

void carevoice_cmn_learn_afresh(ps_decoder_t *ps)
{
    feat_t *feat = ps_get_feat(ps);
    if (feat == NULL || feat->cmn_struct == NULL)
        return;
    cmn_t *cmn = feat->cmn_struct;
    memset(cmn->sum, 0, cmn->veclen * sizeof(mfcc_t));
    cmn->nframe = 0;
}
