#ifndef CFEEDSQLITE_SHIM_H
#define CFEEDSQLITE_SHIM_H
// The session API is declared only with these two defined (Debian's SQLite is built with both).
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>
#endif
