#pragma once
#include <espeak-ng/speak_lib.h>
/* The espeak_ng_* API reports failures as status codes instead of printing
   them and calling exit(), which espeak_Initialize does by default. */
#include <espeak-ng/espeak_ng.h>
