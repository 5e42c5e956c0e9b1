#ifndef CFEEDDEFLATE_SHIM_H
#define CFEEDDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
