#pragma once
#include <alsa/asoundlib.h>

/// ALSA's error handler is variadic, which Swift cannot implement: this installs
/// one that discards every message, so a missing sound card never floods the screen.
void carevoice_alsa_silence_errors(void);
