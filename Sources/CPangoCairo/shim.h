// cairo (PDF surfaces) and pango (text layout) for CareReport.
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
#include <pango/pangocairo.h>
