// SPDX-License-Identifier: GPL-2.0
/*
 * lazy_lib.c - a library loaded by its soname when first needed.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "lazy_lib.h"

bool hwt_lazy_lib__open(const char *soname, int flags, const char *what,
			const struct hwt_lazy_sym *syms, size_t n, char *why, size_t whylen)
{
	void *lib;
	size_t i;

	/* linked in (the static tool): nothing to load */
	for (i = 0; i < n && syms[i].linked; i++)
		*syms[i].p = syms[i].linked;
	if (i == n)
		return true;
	lib = dlopen(soname, flags | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, whylen, "cannot load %s (Debian package %s): %s", soname, what,
			 dlerror());
		return false;
	}
	for (i = 0; i < n; i++) {
		*syms[i].p = dlsym(lib, syms[i].name);
		if (!*syms[i].p) {
			snprintf(why, whylen, "%s has no %s: not the ABI this tool was built for",
				 soname, syms[i].name);
			dlclose(lib);
			return false;
		}
	}
	return true;
}

bool hwt_lazy_lib__load(struct hwt_lazy_lib *l)
{
	int state = __atomic_load_n(&l->state, __ATOMIC_ACQUIRE);

	if (!state) {
		pthread_mutex_lock(&l->lock);
		state = l->state;
		if (!state) {
			state = hwt_lazy_lib__open(l->soname, l->flags, l->pkg, l->syms, l->n,
						   l->why, sizeof(l->why)) ? 1 : -1;
			__atomic_store_n(&l->state, state, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&l->lock);
	}
	return state > 0;
}
