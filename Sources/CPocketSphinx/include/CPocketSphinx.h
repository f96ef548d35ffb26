#pragma once
/*
 * The subset of pocketsphinx 0.8 (5prealpha) / sphinxbase that CareSpeech uses.
 *
 * Why not just include <pocketsphinx.h>: it includes its siblings with angle
 * brackets (<ps_search.h>, <cmdln_macro.h>), so it only compiles with
 * -I/usr/include/pocketsphinx, and C-target flags are not passed on to Swift
 * targets that import this module. So the declarations are repeated here with
 * opaque types; shim.c includes the real headers too, and the C compiler
 * rejects any declaration below that disagrees with them.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ps_decoder_s ps_decoder_t;
typedef struct cmd_ln_s cmd_ln_t;
typedef struct arg_s arg_t;
typedef struct logmath_s logmath_t;

/* sphinxbase */
void err_set_logfp(FILE *stream);
cmd_ln_t *cmd_ln_parse_r(cmd_ln_t *inout_cmdln, arg_t const *defn, int32_t argc, char *argv[], int32_t strict);
int cmd_ln_free_r(cmd_ln_t *cmdln);
long cmd_ln_int_r(cmd_ln_t *cmdln, char const *name);
double cmd_ln_float_r(cmd_ln_t *cmdln, char const *name);
void cmd_ln_set_float_r(cmd_ln_t *cmdln, char const *name, double fv);
double logmath_exp(logmath_t *lmath, int logb_p);

/* pocketsphinx */
arg_t const *ps_args(void);
ps_decoder_t *ps_init(cmd_ln_t *config);
int ps_free(ps_decoder_t *ps);
logmath_t *ps_get_logmath(ps_decoder_t *ps);
int ps_add_word(ps_decoder_t *ps, char const *word, char const *phones, int update);
char *ps_lookup_word(ps_decoder_t *ps, const char *word);
int ps_start_utt(ps_decoder_t *ps);
int ps_process_raw(ps_decoder_t *ps, int16_t const *data, size_t n_samples, int no_search, int full_utt);
int ps_end_utt(ps_decoder_t *ps);
char const *ps_get_hyp(ps_decoder_t *ps, int32_t *out_best_score);
int32_t ps_get_prob(ps_decoder_t *ps);
int ps_get_n_frames(ps_decoder_t *ps);
void ps_get_utt_time(ps_decoder_t *ps, double *out_nspeech, double *out_ncpu, double *out_nwall);
uint8_t ps_get_in_speech(ps_decoder_t *ps);
int ps_set_search(ps_decoder_t *ps, const char *name);
const char *ps_get_search(ps_decoder_t *ps);
int ps_set_jsgf_string(ps_decoder_t *ps, const char *name, const char *jsgf_string);
int ps_set_lm_file(ps_decoder_t *ps, const char *name, const char *path);
typedef struct ps_seg_s ps_seg_t;
ps_seg_t *ps_seg_iter(ps_decoder_t *ps);
ps_seg_t *ps_seg_next(ps_seg_t *seg);
char const *ps_seg_word(ps_seg_t *seg);
void ps_seg_frames(ps_seg_t *seg, int *out_sf, int *out_ef);
int32_t ps_seg_prob(ps_seg_t *seg, int32_t *out_ascr, int32_t *out_lscr, int32_t *out_lback);
void ps_seg_free(ps_seg_t *seg);

/* CareVoice shims */

/// sphinxbase's voice-activity detector on its own: a front end made from a
/// decoder's configuration, so it decides exactly as the decoder's own would,
/// and goes on deciding while the decoder decodes.
typedef struct carevoice_vad_s carevoice_vad_t;
carevoice_vad_t *carevoice_vad_init(cmd_ln_t *config);
void carevoice_vad_start_utt(carevoice_vad_t *vad);
/// Forgets the noise the detector has learned: the next frame seeds it afresh,
/// as in a detector just made (a new stream with a room of its own).
void carevoice_vad_start_stream(carevoice_vad_t *vad);
void carevoice_vad_end_utt(carevoice_vad_t *vad);
/// Feeds samples; returns 1 when the last frame was (in) speech, 0 when not,
/// -1 on error.
int carevoice_vad_process(carevoice_vad_t *vad, const int16_t *samples, size_t n_samples);
void carevoice_vad_free(carevoice_vad_t *vad);

/// Parses a JSGF grammar the way ps_set_jsgf_string does (first public rule)
/// and lists the words it can produce, one per line, in a malloc'd string the
/// caller frees. NULL when the grammar does not parse, has no public rule, or
/// cannot be turned into a finite-state grammar. This lets the caller name a
/// word missing from the dictionary, which pocketsphinx only writes to its log.
char *carevoice_jsgf_words(const char *jsgf_source);

/// A JSGF grammar's finite-state form, kept to ask where a sequence of words
/// stands in it (the decoder's own copy is out of reach).
typedef struct carevoice_fsg_s carevoice_fsg_t;
/// NULL when the grammar does not parse or has no public rule.
carevoice_fsg_t *carevoice_fsg_init(const char *jsgf_source);
void carevoice_fsg_free(carevoice_fsg_t *g);
enum {
    /// The words are the start of at least one sentence of the grammar.
    CAREVOICE_FSG_PREFIX = 1,
    /// ... and a whole sentence.
    CAREVOICE_FSG_COMPLETE = 2,
    /// ... and some sentence goes on after them.
    CAREVOICE_FSG_GOES_ON = 4,
};
/// Where `words` (separated by single spaces) stand in the grammar: 0 when no
/// sentence starts with them, else CAREVOICE_FSG_* flags.
int carevoice_fsg_prefix(carevoice_fsg_t *g, const char *words);


/// ps_set_jsgf_string, except that every arc of the grammar into `words[i]`
/// is made `odds[i]` times as likely as the grammar makes it (above 1 favours
/// the word, below 1 disfavours it), scaled by the language weight (-lw, read
/// from `config`) as an FSG file's probabilities are. Words the grammar lacks
/// are ignored. Returns what ps_set_fsg returns (0 on success), or -1 when the
/// grammar does not parse or has no public rule.
int carevoice_set_jsgf_with_odds(ps_decoder_t *ps, cmd_ln_t *config, const char *name, const char *jsgf_source,
                                 const char *const *words, const double *odds, size_t count);

/// All a decoder has learned of the cepstral mean (mean, sums, frames, batch
/// or live mode), to put it back as it was.
typedef struct carevoice_cmn_state_s carevoice_cmn_state_t;
carevoice_cmn_state_t *carevoice_cmn_state_save(ps_decoder_t *ps);
void carevoice_cmn_state_restore(ps_decoder_t *ps, const carevoice_cmn_state_t *state);
void carevoice_cmn_state_free(carevoice_cmn_state_t *state);

/// The cepstral mean a decoder subtracts now: copies it into `mean` (room for `size` values) and
/// returns how many values it has, or -1.
int carevoice_cmn_mean_get(ps_decoder_t *ps, float *mean, int size);
/// Starts the cepstral mean at `mean` (`size` values), as -cmninit would: returns 0, or -1 when
/// the decoder's mean has another size.
int carevoice_cmn_mean_set(ps_decoder_t *ps, const float *mean, int size);
/// Forgets the frames the live cepstral mean was learned from, keeping the mean it subtracts: at
/// the end of the next utterance heard as it streams, the mean is that utterance's own.
void carevoice_cmn_learn_afresh(ps_decoder_t *ps);
