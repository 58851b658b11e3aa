/* library_load.c - open an optional library and look up its functions.
 *
 * Libraries are opened by their versioned soname (libunwind.so.8, not
 * libunwind.so): the runtime package installs that one, the -dev package
 * only adds the unversioned link, and the version promises the ABI the
 * headers we were built with describe.
 */
#include "backtrace/library_load_private.h"

#include <dlfcn.h>
#include <string.h>

/* dlsym returns a data pointer; POSIX guarantees it converts to a function
 * pointer, and it is copied as such into the table. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
               "function pointers are as wide as data pointers");

bool library_load(const char *soname, const library_symbol *symbols,
                  unsigned count, void *table)
{
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        return false;
    for (unsigned i = 0; i < count; i++)
    {
        void *address = dlsym(handle, symbols[i].name);
        if (!address && !symbols[i].optional)
        {
            dlclose(handle);
            return false;
        }
        memcpy((char *) table + symbols[i].offset, &address, sizeof(address));
    }
    return true;                        /* kept open for the process's life */
}
