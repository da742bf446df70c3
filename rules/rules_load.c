/* rules_load: being written */
#include "rules/classify.h"
