#ifndef CFEEDXML2_SHIM_H
#define CFEEDXML2_SHIM_H
// libxml2, wrapped once by the FeedXML module: the streaming reader and XSD validation.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, so encoding.h includes the system's <unicode/ucnv.h>,
// which clashes with the ICU copy bundled with Foundation. FeedXML never touches the ICU
// converter fields of xmlCharEncodingHandler (it only passes pointers), so they are hidden.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlerror.h>
#endif
