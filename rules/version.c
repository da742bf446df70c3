/* version: being written */
#include "rules/classify.h"
