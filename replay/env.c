/* env.c - where a replay ran: kernel, OS, CPU, the file system under the
 * scratch directory, the sandbox and the tools' versions. Numbers from two
 * machines mean little without this beside them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "internal.h"

/* statfs f_type values (linux/magic.h) */
static const struct {
	unsigned long magic;
	const char *name;
} fs_names[] = {
	{0xEF53, "ext2/3/4"},     {0x58465342, "xfs"},      {0x9123683E, "btrfs"},
	{0x01021994, "tmpfs"},    {0x2FC12FC1, "zfs"},      {0x794C7630, "overlayfs"},
	{0x6969, "nfs"},          {0x65735546, "fuse"},     {0xF2F52010, "f2fs"},
	{0x4D44, "vfat"},         {0x5346544E, "ntfs"},     {0x858458F6, "ramfs"},
	{0x73717368, "squashfs"}, {0xFF534D42, "cifs"},     {0x01021997, "9p"},
	{0x3153464A, "jfs"},      {0x52654973, "reiserfs"},
};

static json_t *os_name(void)
{
	FILE *f = fopen("/etc/os-release", "r");
	if (!f)
		return json_null();
	char line[256];
	json_t *r = json_null();
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "PRETTY_NAME=", 12) != 0)
			continue;
		char *v = line + 12;
		size_t l = strcspn(v, "\n");
		v[l] = '\0';
		if (l >= 2 && v[0] == '"' && v[l - 1] == '"') {
			v[l - 1] = '\0';
			v++;
		}
		json_decref(r);
		r = json_string(v);
		break;
	}
	fclose(f);
	return r ? r : json_null();
}

static json_t *cpu(void)
{
	json_t *o = json_object();
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[512];
		while (fgets(line, sizeof line, f)) {
			if (strncmp(line, "model name", 10) != 0)
				continue;
			char *c = strchr(line, ':');
			if (!c)
				continue;
			c++;
			while (*c == ' ' || *c == '\t')
				c++;
			c[strcspn(c, "\n")] = '\0';
			json_t *s = json_string(c);
			if (s)
				json_object_set_new(o, "model", s);
			break;
		}
		fclose(f);
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n > 0)
		json_object_set_new(o, "count", json_integer(n));
	long mem = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (mem > 0 && page > 0)
		json_object_set_new(o, "memory_bytes", json_integer((json_int_t)mem * page));
	return o;
}

static json_t *filesystem(const char *path)
{
	json_t *o = json_object();
	json_object_set_new(o, "path", json_string(path));
	struct statfs st;
	if (statfs(path, &st) == 0) {
		const char *name = "unknown";
		for (size_t i = 0; i < sizeof fs_names / sizeof fs_names[0]; i++)
			if ((unsigned long)st.f_type == fs_names[i].magic)
				name = fs_names[i].name;
		char magic[24];
		snprintf(magic, sizeof magic, "0x%lx", (unsigned long)st.f_type);
		json_object_set_new(o, "type", json_string(name));
		json_object_set_new(o, "magic", json_string(magic));
		json_object_set_new(o, "block_size", json_integer((json_int_t)st.f_bsize));
		json_object_set_new(o, "free_bytes",
				    json_integer((json_int_t)((unsigned long long)st.f_bavail *
							      (unsigned long long)st.f_bsize)));
	}
	return o;
}

json_t *bl_replay_environment(const char *scratch, const struct bl_replay_opts *o)
{
	json_t *env = json_object();
	if (!env)
		return NULL;
	struct utsname u;
	if (uname(&u) == 0) {
		char buf[sizeof u.sysname + sizeof u.release + sizeof u.machine + 4];
		snprintf(buf, sizeof buf, "%s %s %s", u.sysname, u.release, u.machine);
		json_object_set_new(env, "kernel", json_string(buf));
	}
	json_object_set_new(env, "os", os_name());
	json_object_set_new(env, "cpu", cpu());
	json_object_set_new(env, "scratch", filesystem(scratch));
	enum bl_sandbox_state sb = o->no_sandbox ? BL_SANDBOX_MISSING : bl_sandbox_probe(NULL);
	json_object_set_new(
		env, "sandbox",
		json_string(o->no_sandbox         ? "none (--no-sandbox)"
			    : sb == BL_SANDBOX_OK ? "bubblewrap"
			    : sb == BL_SANDBOX_UNUSABLE
				    ? "none (bwrap cannot make its namespaces on this machine)"
				    : "none (bwrap not installed)"));
	json_object_set_new(env, "tools", json_object());
	return env;
}

/* The tool's version, from the tool itself: a replaced or trojaned binary
 * found on the tool path runs here before the replay does, so the probe
 * gets the run's own jail (bubblewrap with the scratch directory as the
 * only writable place, the scratch as working directory, a clean
 * environment) and a shorter time limit. Without bubblewrap it still runs
 * in the scratch directory, never in the caller's. */
json_t *bl_replay_tool_version(const char *tool, const char *tool_path, const char *bwrap,
			       const char *scratch, double max_seconds)
{
	char *words[6] = {NULL};
	const char *exe = tool_path;
	char *dpkg = NULL;
	if (strcmp(tool, "dd") == 0) {
		words[0] = (char *)tool;
		words[1] = "--version";
	} else if (strcmp(tool, "iozone") == 0) {
		words[0] = (char *)tool;
		words[1] = "-v";
	} else {
		dpkg = bl_replay_which("dpkg-query", NULL);
		if (!dpkg)
			return json_null();
		exe = dpkg;
		words[0] = "dpkg-query";
		words[1] = "-W";
		words[2] = "-f=${Package} ${Version}";
		words[3] = strcmp(tool, "zpool") == 0 ? "zfs-fuse" : (char *)tool;
	}
	struct bl_plan probe = {.argv = words, .cwd = (char *)scratch};
	while (probe.argv[probe.argc])
		probe.argc++;
	char **argv = bl_sandbox_argv(&probe, exe, bwrap, scratch);
	free(dpkg);
	if (!argv)
		return json_null();
	struct bl_spawn_result r;
	json_t *out = json_null();
	double limit = max_seconds < 5.0 ? max_seconds : 5.0;
	if (bl_spawn(argv, bwrap ? NULL : scratch, limit, NULL, NULL, NULL, &r) == 0 &&
	    r.exit_status == 0) {
		/* the first line that says something ("Version $Revision: 3.489 $") */
		char *s = r.output;
		while (s && *s) {
			size_t l = strcspn(s, "\n");
			char line[200];
			snprintf(line, sizeof line, "%.*s", (int)l, s);
			char *t = line;
			while (*t == ' ' || *t == '\t')
				t++;
			if (*t && (strcmp(tool, "iozone") != 0 || strstr(t, "Version"))) {
				json_decref(out);
				out = json_string(t);
				if (!out)
					out = json_null();
				break;
			}
			s += l;
			if (*s)
				s++;
		}
	}
	bl_spawn_result_free(&r);
	bl_argv_free(argv);
	return out;
}
