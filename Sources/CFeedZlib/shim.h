#ifndef CFEEDZLIB_SHIM_H
#define CFEEDZLIB_SHIM_H
#include <zlib.h>
#endif
