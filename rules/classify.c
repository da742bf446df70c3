/* classify: being written */
#include "rules/classify.h"
