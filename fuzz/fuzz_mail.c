/* libFuzzer target: MIME to text (gmime: headers, multipart, transfer
 * encodings, charsets) and then the reply/trailer extraction, the
 * patch-subject parser and the pasted-patch finder that read the decoded
 * text. */
#include "fuzz/fuzz.h"
#include "mail/message.h"
#include "mail/reply.h"
#include "rules/commit.h"
#include "rules/patch_subject.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sm_mail_library_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_mail m;

	if (!sm_mail_parse(&m, (const char *)data, size, "fuzz-input")) {
		struct sm_reply_text r;
		struct sm_patch_subject ps;

		sm_reply_extract(m.body, m.from, &r);
		sm_reply_text_release(&r);
		sm_patch_subject_parse(m.subject, &ps);
		if (m.body) {
			size_t at;

			free(sm_pasted_patch_subject(m.body, strlen(m.body), &at));
		}
	}
	sm_mail_release(&m);
	return 0;
}
