/* rng.h: the random numbers of keys and values: xorshift64*, and the
 * fixed-width digits a key's number is written as.  Inline: the engine
 * draws once a request; the cluster's key routing and the key
 * distributions use the same draw and digits, so they sit below both. */
#ifndef RS_RNG_H
#define RS_RNG_H

#include <stdint.h>

/* Random keys: the engine overwrites RNG_DIGITS bytes at each of a job's
 * rand_off places with a zero-padded decimal per request. */
#define RNG_DIGITS 12     /* even: rng_put_digits writes two at a time */

/* xorshift64*: cheap, and reproducible from --seed.  *s is never 0. */
static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Write v as RNG_DIGITS zero-padded decimal digits at p (no NUL):
 * two digits a step, since this runs once a request. */
static inline void rng_put_digits(char *p, uint64_t v)
{
	static const char pairs[201] =
		"0001020304050607080910111213141516171819"
		"2021222324252627282930313233343536373839"
		"4041424344454647484950515253545556575859"
		"6061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";

	for (int i = RNG_DIGITS - 2; i >= 0; i -= 2) {
		unsigned d = (unsigned)(v % 100) * 2;

		p[i] = pairs[d];
		p[i + 1] = pairs[d + 1];
		v /= 100;
	}
}

#endif
