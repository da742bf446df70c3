/* diffstat: being written */
#include "rules/classify.h"
