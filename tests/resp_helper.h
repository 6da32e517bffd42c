/* resp_helper.h: a hiredis reply tree from RESP text, as a server would
 * send it, for tests of code that reads replies without a server
 * (header-only: one function). */
#ifndef RS_TESTS_RESP_HELPER_H
#define RS_TESTS_RESP_HELPER_H

#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <string.h>

/* The reply the text resp reads as (freeReplyObject); fails the test
 * when it is not one whole reply. */
static inline redisReply *resp_reply(const char *resp)
{
	size_t n = strlen(resp);
	redisReader *r = redisReaderCreate();
	void *out = NULL;

	cr_assert_not_null(r);
	cr_assert(redisReaderFeed(r, resp, n) == REDIS_OK);
	cr_assert(redisReaderGetReply(r, &out) == REDIS_OK);
	cr_assert_not_null(out, "not a whole reply: %.*s", (int)n, resp);
	redisReaderFree(r);
	return out;
}

#endif
