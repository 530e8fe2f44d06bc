/* placeholder: replaced by the io implementation */
#include "fileio.h"
typedef int hb_placeholder_t;
