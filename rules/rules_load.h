#include "rules/classify.h"
