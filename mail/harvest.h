/* harvest: list replies -> reviews -> git notes on upstream commits. */
#ifndef SM_MAIL_HARVEST_H
#define SM_MAIL_HARVEST_H

/* stable-commits@ is where the stable queue's "added to the 6.12-stable
 * tree" notices go (mail/review.h, sm_notice_from_thread).
 * A run does not tag the messages it reads (each tag is a Xapian document
 * rewrite): it records the database revision it read up to (mail/harvest.c).
 * The query leaves out messages carrying SM_HARVEST_TAG. */
#define SM_HARVEST_DEFAULT_QUERY \
	"(to:stable@vger.kernel.org or cc:stable@vger.kernel.org or " \
	"to:stable-commits@vger.kernel.org or cc:stable-commits@vger.kernel.org or " \
	"to:linux-kernel@vger.kernel.org or cc:linux-kernel@vger.kernel.org) " \
	"and not tag:stablemate-harvested"
#define SM_HARVEST_TAG "stablemate-harvested"

struct sm_progress;

struct sm_harvest_opts {
	const char *db_path;		/* notmuch database (its mail root) */
	const char *query;		/* NULL: SM_HARVEST_DEFAULT_QUERY */
	const char *repo;		/* git repository: upstream commits + notes ref */
	const char *upstream_ref;	/* ref to map patches against; NULL: HEAD */
	const char *notes_ref;		/* NULL: SM_NOTES_REF_DEFAULT; named as sm_notes_ref_full() says */
	const char *bot_address;	/* the bot's own From: replies from it are ignored */
	const char *aliases_file;	/* NULL, or known alternate addresses (mail/ident.h) */
	int dry_run;			/* parse and map, write nothing */
	struct sm_progress *progress;	/* counts the messages read (lib/progress.h), or NULL */
};

struct sm_harvest_stats {
	unsigned messages, patches, mapped, unmapped;
	unsigned reviews_added, reviews_known, skipped_broken;
	/* stable-queue notices recorded (mail/review.h, sm_notice_from_thread) */
	unsigned notices_added, notices_known;
	/* reviewed patches without an upstream commit (mail/pending.h): kept
	 * for later runs, found now (their threads read again), given up */
	unsigned pending, pending_mapped, pending_expired;
	/* threads read again whole because a patch or cover letter came in
	 * after replies to it (those replies' reviews were not taken then) */
	unsigned threads_read_again;
	unsigned unverified;		/* reviews with trailers in another's name */
	unsigned bad_ids;		/* Message-IDs kept under a derived id */
	/* The ref patches were mapped against, and a note on the default's
	 * choice ("HEAD's linux-6.1.y is a stable branch"; "" when none) */
	char upstream_ref[128];
	char upstream_note[256];
};

int sm_harvest(const struct sm_harvest_opts *o, struct sm_harvest_stats *st);
/* st as a JSON object (under key, NULL in an array): messages, patches,
 * mapped, unmapped, reviews_added, reviews_known, notices_added,
 * notices_known, pending, pending_mapped, pending_expired,
 * threads_read_again, skipped_broken,
 * unverified, bad_message_ids, upstream_ref and upstream_note (why that
 * ref, null when HEAD's branch was taken as it is). */
struct json_writer;
void sm_harvest_stats_json(const struct sm_harvest_stats *st, struct json_writer *w,
			   const char *key);

/* What sm_harvest_report() tells its callback, one call per event:
 *   "review"   r and commit (40 hex) set: a review to write to that commit's
 *              note (stats tell how many were new and how many known)
 *   "notice"   r and commit set, patch_id and subject too: a stable queue's
 *              notice (r->notice) to record on that commit's note
 *   "unmapped" patch_id/subject set: a patch with reviews, or a notice, and
 *              no upstream commit
 *   "written"  nothing set: a batch of reviews is in the notes and its
 *              messages are not tagged yet (a crash now must not duplicate) */
struct sm_review;
typedef void (*sm_harvest_fn)(void *data, const char *event, const struct sm_review *r,
			      const char *commit, const char *patch_id, const char *subject);
/* sm_harvest() with a callback (fn may be NULL). */
int sm_harvest_report(const struct sm_harvest_opts *o, struct sm_harvest_stats *st,
		      sm_harvest_fn fn, void *data);

#endif
