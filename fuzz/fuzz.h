/* The libFuzzer entry points each target in fuzz/ defines. */
#ifndef SM_FUZZ_H
#define SM_FUZZ_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
