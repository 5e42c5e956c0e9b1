#ifndef CFEEDSQLITE_SHIM_H
#define CFEEDSQLITE_SHIM_H
// The session API is declared only with these two defined (Debian's SQLite is built with both).
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: one wrapper per setting used.
// Turns off SQLite's memory statistics; must run before SQLite is first used (SQLITE_MISUSE after).
static inline int feed_sqlite_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}
#endif
