/* test_workload_danger.c: which commands of one's own can destroy data
 * they do not name, so that a run says so at its start (issue 40, D12). */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "workload/workload.h"

/* workload_danger of the sequence argv (";" between commands). */
static int danger_of_seq(int argc, char **argv, char *why, size_t size)
{
	struct workload w;
	struct rs_err err;
	int rc;

	cr_assert_eq(workload_sequence(argc, argv, 3, 0, &w, &err), 0, "%s", err.msg);
	rc = workload_danger(&w.v[0], why, size);
	workload_free(&w);
	return rc;
}

static int danger_of_custom(int argc, char **argv, char *why, size_t size)
{
	struct workload w;
	struct rs_err err;
	int rc;

	cr_assert_eq(workload_custom(argc, argv, &w, &err), 0, "%s", err.msg);
	rc = workload_danger(&w.v[0], why, size);
	workload_free(&w);
	return rc;
}

Test(workload_danger, flushes_and_moves_are_named)
{
	char why[200];
	char *seq[] = { "SET", "k", "v", ";", "FLUSHALL" };
	char *swap[] = { "SWAPDB", "0", "9" };
	char *script[] = { "script", "flush" };
	char *move[] = { "SET", "k", "v", ";", "MOVE", "k", "9" };

	cr_assert(danger_of_seq(5, seq, why, sizeof why));
	cr_assert_str_eq(why, "FLUSHALL empties every database");
	cr_assert(danger_of_custom(3, swap, why, sizeof why));
	cr_assert(strstr(why, "SWAPDB") != NULL, "%s", why);
	cr_assert(danger_of_custom(2, script, why, sizeof why));
	cr_assert(strstr(why, "SCRIPT FLUSH") != NULL, "%s", why);
	cr_assert(danger_of_seq(7, move, why, sizeof why));
	cr_assert(strstr(why, "MOVE") != NULL, "%s", why);
}

Test(workload_danger, a_delete_of_a_key_the_test_never_writes)
{
	char why[200];
	char *own[] = { "SET", "k:__rand_int__", "v", ";", "DEL", "k:__rand_int__" };
	char *other[] = { "SET", "k", "v", ";", "UNLINK", "user:1" };
	char *alone[] = { "DEL", "foo" };

	cr_assert_not(danger_of_seq(6, own, why, sizeof why), "its own key: %s", why);
	cr_assert(danger_of_seq(6, other, why, sizeof why));
	cr_assert(strstr(why, "UNLINK of 'user:1'") != NULL, "%s", why);
	cr_assert(danger_of_custom(2, alone, why, sizeof why));
}

Test(workload_danger, ordinary_commands_and_the_catalogue_are_not)
{
	char why[200];
	char *get[] = { "GET", "flushall" };
	char *config[] = { "CONFIG", "GET", "maxmemory" };
	struct workload w;
	struct rs_err err;

	cr_assert_not(danger_of_custom(2, get, why, sizeof why), "a key named flushall");
	cr_assert_not(danger_of_custom(3, config, why, sizeof why));
	cr_assert_eq(workload_select(NULL, 3, &w, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < w.n; i++)
		cr_assert_not(workload_danger(&w.v[i], why, sizeof why), "%s", w.v[i].name);
	workload_free(&w);
}

Test(workload_danger, a_command_file)
{
	static const char file[] = "1 SET k v\n1 FLUSHDB\n";
	char why[200];
	struct workload w;
	struct rs_err err;

	cr_assert_eq(workload_commands_parse(file, sizeof file - 1, "f", 3, &w, &err), 0, "%s",
		     err.msg);
	cr_assert(workload_danger(&w.v[0], why, sizeof why));
	cr_assert_str_eq(why, "FLUSHDB empties the database");
	workload_free(&w);
}
