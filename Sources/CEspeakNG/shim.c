/* Swift needs a source file per C target; espeak-ng is called directly. */
