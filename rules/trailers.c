/* trailers: being written */
#include "rules/classify.h"
