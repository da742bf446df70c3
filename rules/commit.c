/* commit: being written */
#include "rules/classify.h"
