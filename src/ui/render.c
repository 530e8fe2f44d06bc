/* placeholder: replaced by the renderer */
#include "ui.h"
typedef int hb_placeholder_t;
