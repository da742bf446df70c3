/* stable_tag: being written */
#include "rules/classify.h"
