/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drm_clients.h - DRM clients found under a /proc tree, sampled over time.
 *
 * A full rescan walks <proc>/<pid>/fd, keeps the fds that are DRM device
 * nodes (char major 226, or 261 for /dev/accel; in a recorded tree whose
 * nodes do not exist here, a link target under /dev/dri/ or /dev/accel/)
 * and reads their fdinfo.  Between rescans only one known fd per client is
 * re-read, through an fdinfo file kept open from the rescan and pread() at
 * offset 0: procfs regenerates the text on every read (and fails once the
 * fd is closed), so that is one syscall instead of open+read+close and a
 * path walk.  A client is one (device, drm-client-id): counted once however
 * many fds and processes hold it.
 *
 * A scan for new clients (DRM_SAMPLE_NEW) sits between the two: it lists
 * <proc> and stats each <pid>/fd directory (through an O_PATH fd kept from
 * the last NEW scan, so without a path walk, while the pid's d_ino in the
 * listing stays the same); only a new pid, or one whose
 * directory changed (st_size is the number of open fds on procfs since Linux
 * 6.2; mtime and inode change in a plain tree), has its fds listed, and only
 * fds not known from an earlier scan are classified.  A known fd number reused
 * for another file in the same process, with the fd count unchanged, is only
 * found by the next full scan.
 */
#ifndef PERF_HWTRACE_DRM_CLIENTS_H
#define PERF_HWTRACE_DRM_CLIENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "drm_fdinfo/drm_fdinfo_internal.h"

#define DRM_MAJOR 226
#define ACCEL_MAJOR 261

struct drm_client {
	uint64_t dev;		/* major << 32 | minor */
	uint64_t client_id;	/* or a per-fd key when the driver prints none */
	bool has_id;
	int *pids;		/* sorted, unique */
	int npids, cap_pids;
	char comm[64];		/* of the lowest pid */
	/*
	 * Reparsed in turn: no allocation per refresh.  @prev is only the next
	 * full parse's target: an unchanged text, or one changed only in its
	 * numbers (updated over @cur in place), does not rotate.
	 */
	struct hwt_drm_fdinfo cur, prev;
	bool has_prev;
	char *text;		/* the fdinfo text @cur was parsed or updated from */
	uint32_t text_len, cap_text;	/* text_len UINT32_MAX: none kept */
	/*
	 * The last read changed nothing: the same text as the read before, so
	 * the same @cur, and the same @util (busy deltas of zero over a wall
	 * time that again was not zero): a view made after the read before
	 * still holds, unless a scan changed @pids or @comm since.
	 */
	bool steady;
	/*
	 * The last read found the driver, pdev, client name and id as before
	 * (an unchanged text, or one changed only in its numbers).
	 */
	bool same_strings;
	uint64_t t_cur, t_prev;	/* monotonic ns of the reads */
	struct hwt_drm_util *util;	/* cur.nengines entries */
	uint32_t cap_util;
	int rfd;		/* fdinfo of fdrefs[0] kept open, or -1 */
	double total_util;	/* sum of the non-null engine percentages */
	int *fdrefs;		/* indexes into drm_clients.fds that reach this client */
	int nfdrefs, cap_fdrefs;
	unsigned int gen;	/* last sample that saw it */
	uint64_t *warned;	/* hashes of the fdinfo keys already warned about */
	int nwarned, cap_warned;
	/* the caller's rendering of it, made by drm_clients.updated() (never read here) */
	size_t view_off, view_len, view_head;	/* view_head: its part up to the engines */
	unsigned int view_gen;
	uint32_t view_rank;	/* the caller's: 1 + its place in the last sort, 0 none */
};

/*
 * A client without drm-client-id is one fd, and its key is pid << 32 | fd:
 * that fd's number, and the pid that holds it.
 */
static inline uint32_t drm_client__fd(const struct drm_client *cl)
{
	return (uint32_t)cl->client_id;
}

static inline int drm_client__fd_pid(const struct drm_client *cl)
{
	return (int)(uint32_t)(cl->client_id >> 32);
}

struct drm_fdref {
	int pid;
	int fd;
	uint64_t dev;
	unsigned int seen;	/* gen of the last scan that listed it */
	bool dead;		/* closed, or its process exited: dropped at the next scan */
	char comm[64];
};

/* What a scan remembers of one <pid>/fd directory, to skip it when unchanged. */
struct drm_pidstamp {
	int pid;
	unsigned int gen;	/* last scan that listed the pid */
	int64_t size;		/* procfs (6.2+): number of open fds */
	int64_t mtime_ns;
	uint64_t ino;
	uint64_t pid_ino;	/* d_ino of <pid> in the proc listing: another process if it changes */
	int dfd;		/* <pid>/fd kept open (O_PATH) for the next stamp, or -1 */
};

enum drm_sample_mode {
	DRM_SAMPLE_QUICK,	/* re-read the known clients only */
	DRM_SAMPLE_FULL,	/* walk every fd of the proc tree */
	DRM_SAMPLE_NEW,		/* QUICK, then look for new clients (see above) */
};

/* A parse warning held until the client it belongs to is known. */
struct drm_pending_warning {
	uint64_t offset;
	char msg[256];
};

#define DRM_MAX_PENDING 16

struct drm_stats {
	uint64_t samples, full_scans, new_scans, fdinfo_reads, fd_stats, readlinks;
	uint64_t dir_stats, dir_lists;	/* <pid>/fd stamps taken, and listed (NEW scans) */
	uint64_t kept_reads;	/* of fdinfo_reads, through a kept fd */
	uint64_t same_reads;	/* of fdinfo_reads, the text unchanged: no parse */
};

struct drm_clients {
	const char *proc;
	struct drm_client *clients;
	int nclients, cap_clients;
	struct drm_fdref *fds;	/* DRM fds of the last full scan and the NEW scans since */
	int nfds, cap_fds;
	int *hash;		/* open addressing: client index + 1, 0 = empty */
	unsigned int hash_size;
	unsigned int gen;
	uint64_t (*clock)(void *ctx);	/* monotonic ns */
	void *clock_ctx;
	/*
	 * Bad fdinfo lines: called once per client and key (the text before the
	 * first ':' of the message), with the fdinfo path, however often the
	 * line is re-read.  NULL: not reported.
	 */
	void (*warn)(void *ctx, const struct drm_client *cl, const char *path,
		     const struct hwt_error *e);
	void *warn_ctx;
	/*
	 * Called in a DRM_SAMPLE_QUICK sample as soon as @cl has been re-read
	 * and its utilisation computed, while its scattered pieces are still
	 * in the cache: a view rendered here costs a fraction of one rendered
	 * after thousands of other clients were read.  Other modes may still
	 * add pids to a client after it was read, so they make no call.  NULL:
	 * none.
	 */
	void (*updated)(void *ctx, struct drm_client *cl);
	void *updated_ctx;
	bool quick_only;	/* the sample in progress is DRM_SAMPLE_QUICK */
	bool reparse;		/* parse every line of every text, changed or not (benchmarks) */
	struct hwt_diag pdiag;	/* the parser's, collecting into pending */
	struct drm_pending_warning pending[DRM_MAX_PENDING];
	int npending;
	struct drm_stats stats;
	char *buf;		/* fdinfo read buffer, grows */
	size_t buf_size;
	struct hwt_drm_fdinfo scratch;	/* parse target, swapped into a client */
	struct hwt_drm_engine *old;	/* a client's engines before an in-place update */
	uint32_t cap_old;
	int nkept, max_kept;	/* kept fdinfo fds, and how many RLIMIT_NOFILE allows */
	char *dents;		/* getdents64 buffer */
	char *names;		/* pid names of the proc listing, NUL-separated */
	size_t names_size;
	uint64_t *name_inos;	/* their d_ino, in the same order */
	int cap_name_inos;
	int ndirfds;		/* kept <pid>/fd fds (drm_pidstamp.dfd), from the kept-fd budget */
	struct drm_pidstamp *pst, *pst_new;	/* stamps of the last scan, of this one */
	int npst, cap_pst, npst_new, cap_pst_new;
	int *pst_hash;		/* pid -> pst index + 1 */
	unsigned int pst_hash_size;
	int *fd_hash;		/* (pid, fd) -> fds index + 1, built when a NEW scan needs it */
	unsigned int fd_hash_size;
	bool fd_hash_ok;
	int *touched;		/* pids whose unlisted fds are dead after a NEW scan */
	int ntouched, cap_touched;
};

/* Also raises the RLIMIT_NOFILE soft limit to the hard one, for the kept fds. */
void drm_clients__init(struct drm_clients *c, const char *proc);
void drm_clients__exit(struct drm_clients *c);
/* Switch to another proc root (replay of recorded trees): the next sample is a full scan. */
void drm_clients__set_proc(struct drm_clients *c, const char *proc);

/**
 * drm_clients__sample - read every client once and compute utilisation
 * @c:		the set
 * @mode:	enum drm_sample_mode: what else to look at for new clients
 *
 * Returns 0, or -1 if the proc root cannot be read.
 */
int drm_clients__sample(struct drm_clients *c, int mode);

/* Device key of a path under /dev/dri/ or /dev/accel/, or 0 if it is none. */
uint64_t drm_clients__dev_from_path(const char *target);

#endif
