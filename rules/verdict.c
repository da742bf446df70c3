/* verdict: being written */
#include "rules/classify.h"
