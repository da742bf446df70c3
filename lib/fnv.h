/* fnv: FNV-1a, the 64-bit byte hash of feature names (the model file's
 * weights are found by it) and of diff lines. */
#ifndef SM_LIB_FNV_H
#define SM_LIB_FNV_H
#include <stdint.h>

#define SM_FNV_BASIS 1469598103934665603ULL

/* h with one more byte */
static inline uint64_t sm_fnv_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * 1099511628211ULL;
}

#endif
