#ifndef CFEEDMALLOC_SHIM_H
#define CFEEDMALLOC_SHIM_H
// glibc's allocator settings (mallopt); nothing elsewhere.
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#endif
