/*
 * The libm functions that SQLite's SQL math functions (sin(), pow(), ...)
 * call, resolved from libm only when one is first called.
 *
 * Why: with SQLite linked statically (configure's default where Debian
 * ships libsqlite3.a), these references were the only reason the program
 * loaded libm.  Loading it runs its IFUNC resolvers, which touch its text:
 * about 250 KB of resident memory, and time, on every hook call, for
 * functions no query of the engine calls.  Defined here, they keep libm
 * out of the program (the linker's --as-needed drops it) and, if an SQL
 * expression ever calls one, dlopen() the real libm and forward to it;
 * should that fail the result is NaN, never a crash.
 *
 * Built into the program only when SQLite is linked statically (see
 * configure.ac); the engine library and the tests use libm as usual.
 */
#include <dlfcn.h>
#include <math.h>
#include <stddef.h>

typedef double	(*math1_fn)(double);
typedef double	(*math2_fn)(double, double);

static void *
libm_handle(void)
{
	static void	*h;

	if (h == NULL)
		h = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
	return h;
}

static void *
libm_symbol(const char *name)
{
	void	*h = libm_handle();

	return h != NULL ? dlsym(h, name) : NULL;
}

#define LAZY1(name)							\
double									\
name(double x)								\
{									\
	static math1_fn	f;						\
									\
	if (f == NULL)							\
		*(void **)&f = libm_symbol(#name);			\
	return f != NULL ? f(x) : NAN;					\
}

#define LAZY2(name)							\
double									\
name(double x, double y)						\
{									\
	static math2_fn	f;						\
									\
	if (f == NULL)							\
		*(void **)&f = libm_symbol(#name);			\
	return f != NULL ? f(x, y) : NAN;				\
}

/* Exactly what libsqlite3.a (3.40) leaves undefined; math.h declares them. */
LAZY1(acos) LAZY1(acosh) LAZY1(asin) LAZY1(asinh) LAZY1(atan) LAZY1(atanh)
LAZY1(cos) LAZY1(cosh) LAZY1(exp) LAZY1(log) LAZY1(sin) LAZY1(sinh)
LAZY1(sqrt) LAZY1(tan) LAZY1(tanh) LAZY1(trunc)
LAZY2(atan2) LAZY2(fmod) LAZY2(pow)
