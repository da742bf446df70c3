/* Keeps the library non-empty until its first real source lands. */
int sm_qemu_placeholder;
