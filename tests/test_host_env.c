/* test_host_env.c: the machine's facts read under fake /proc and /sys
 * trees (tests/data/hostenv): a bare-metal Intel box, a VM, and a tree with
 * nothing in it, where every field is unknown and nothing fails. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "os/host_env.h"

static void root_of(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/tests/data/hostenv/%s", RS_TOP_SRCDIR, name);
}

Test(host_env, bare_metal_intel_box)
{
	struct host_env e;
	char root[4096], buf[128];

	root_of("bare", root, sizeof root);
	host_env_read(root, &e);
	cr_assert_str_eq(e.cpu_model, "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz");
	cr_assert_str_eq(e.cores, "8");
	cr_assert_str_eq(e.cpus, "0-7");
	cr_assert_str_eq(e.governor, "performance", "eight CPUs of one governor say it once");
	cr_assert_str_eq(e.driver, "intel_pstate");
	cr_assert_str_eq(e.turbo, "on", "no_turbo 0 is turbo on");
	cr_assert_str_eq(e.kernel, "Linux 6.1.0-18-amd64");
	cr_assert_str_eq(e.virt, "none", "a flags line without hypervisor is bare metal");
	cr_assert_str_eq(e.thp, "madvise");
	cr_assert_str_eq(e.load, "0.52 0.40 0.31");
	cr_assert_str_eq(host_env_proc_cpus(root, 4242, buf, sizeof buf), "6-7");
	cr_assert_str_eq(host_env_proc_comm(root, 4242, buf, sizeof buf), "redis-server");
	cr_assert_str_eq(host_env_proc_cpus(root, 4243, buf, sizeof buf), "", "no such process");
}

Test(host_env, vm_with_mixed_governors_and_boost_off)
{
	struct host_env e;
	char root[4096];

	root_of("vm", root, sizeof root);
	host_env_read(root, &e);
	cr_assert_str_eq(e.cpu_model, "AMD EPYC 7B13");
	cr_assert_str_eq(e.cores, "4");
	cr_assert_str_eq(e.cpus, "1,3");
	cr_assert_str_eq(e.governor, "powersave/performance", "each governor once, in CPU order");
	cr_assert_str_eq(e.driver, "");
	cr_assert_str_eq(e.turbo, "off", "cpufreq/boost 0");
	cr_assert_str_eq(e.virt, "vm", "the CPU's hypervisor flag");
	cr_assert_str_eq(e.thp, "never");
	cr_assert_str_eq(e.kernel, "");
	cr_assert_str_eq(e.load, "");
}

Test(host_env, missing_files_are_unknown_never_an_error)
{
	struct host_env e;
	char root[4096], buf[64];

	root_of("empty", root, sizeof root);
	host_env_read(root, &e);
	cr_assert_str_eq(e.cpu_model, "");
	cr_assert_str_eq(e.cores, "");
	cr_assert_str_eq(e.cpus, "");
	cr_assert_str_eq(e.governor, "");
	cr_assert_str_eq(e.turbo, "");
	cr_assert_str_eq(e.virt, "", "no flags line (not x86, or nothing read): unknown, not bare metal");
	cr_assert_str_eq(e.thp, "");
	cr_assert_str_eq(host_env_load(root, buf, sizeof buf), "");
	host_env_read("/nonexistent-root", &e);
	cr_assert_str_eq(e.cores, "");
}

Test(host_env, this_machine_reads_without_failing)
{
	struct host_env e;

	host_env_read("", &e);
	/* Whatever the machine: the count of CPUs is known everywhere rsweep runs. */
	cr_assert(e.cores[0] != '\0');
	cr_assert(e.kernel[0] != '\0');
}

Test(host_env, cpu_lists_are_counted)
{
	cr_assert_eq(host_env_count_cpus("0-3,8"), 5);
	cr_assert_eq(host_env_count_cpus("0"), 1);
	cr_assert_eq(host_env_count_cpus(""), -1);
	cr_assert_eq(host_env_count_cpus("x"), -1);
}
