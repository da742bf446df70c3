/* test_mail: gmime parsing, reply trailers, threading,
 * and the b4 comparison (issue 7.3) on the real corpus in ../shared/. */
#include "mail/message.h"
#include "rules/patch_subject.h"
#include "mail/reply.h"
#include "mail/ident.h"
#include "mail/msgid.h"
#include "mail/thread.h"
#include "mail/thread_series.h"
#include "mail/mbox.h"
#include "mail/objection.h"
#include "mail/review.h"
#include "mail/pending.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/fileio.h"
#include <check.h>
#include <glib.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include "tests/check_main.h"

/* ---- replies ---- */

START_TEST(reply_trailers_not_quoted)
{
	struct sm_reply_text rt;
	const char *body =
		"On Mon, Jul 1, 2024 at 9:00 AM Greg wrote:\n"
		"> Signed-off-by: Alice <alice@example.com>\n"
		"> Reviewed-by: Quoted <quoted@example.com>\n"
		"  > Acked-by: Indented Quote <iq@example.com>\n"
		"\n"
		"Looks good.\n"
		"\n"
		"Reviewed-by: Rita Reviewer <rita@example.com>\n"
		"Acked-by: Someone Else <else@example.com>\n"
		"Fixes: 0123456789ab (\"the bug\")\n"
		"\n"
		"-- \n"
		"Tested-by: Signature Block <sig@example.com>\n";

	sm_reply_extract(body, "Rita Reviewer <rita@example.com>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 2);
	ck_assert_str_eq(rt.trailers.items[0], "Reviewed-by: Rita Reviewer <rita@example.com>");
	ck_assert_str_eq(rt.trailers.items[1], "Fixes: 0123456789ab (\"the bug\")");
	ck_assert_str_eq(rt.comment, "Looks good.");
	sm_reply_text_release(&rt);

	/* what an ack is for, after the address, is kept; tabs made spaces */
	sm_reply_extract("Acked-by: Bjorn Helgaas <bhelgaas@google.com>\t# pci_ids.h\n"
			 "Reviewed-by: Bjorn Helgaas <bhelgaas@google.com> #\n",
			 "Bjorn Helgaas <bhelgaas@google.com>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 2);
	ck_assert_str_eq(rt.trailers.items[0], "Acked-by: Bjorn Helgaas <bhelgaas@google.com> # pci_ids.h");
	ck_assert_str_eq(rt.trailers.items[1], "Reviewed-by: Bjorn Helgaas <bhelgaas@google.com>");
	sm_reply_text_release(&rt);

	/* a -by key typed with a space (Greg Rose's ack of 2010) is that key;
	 * other keys are not, nor a "by:" without an address after it */
	sm_reply_extract("> -\t}; \n> +\t}\n\nAcked By: Greg Rose <Gregory.v.rose@intel.com>\n"
			 "Fixes by: 0123456789ab\nTested by: running it all night\n",
			 "\"Rose, Gregory V\" <gregory.v.rose@intel.com>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 1);
	ck_assert_str_eq(rt.trailers.items[0], "Acked-by: Greg Rose <Gregory.v.rose@intel.com>");
	ck_assert_str_eq(rt.comment, "Fixes by: 0123456789ab\nTested by: running it all night");
	sm_reply_text_release(&rt);

	/* syzbot's answer to "#syz test": a test by the reporter's address */
	sm_reply_extract("Hello,\n\n"
			 "syzbot has tested the proposed patch and the reproducer did not trigger any issue:\n\n"
			 "Reported-and-tested-by: syzbot+4e9d6c6ab7e5e8d0a8c1@syzkaller.appspotmail.com\n\n"
			 "Tested on:\n\n"
			 "commit:         0c3836482481 Linux 6.10\n",
			 "syzbot <syzbot+4e9d6c6ab7e5e8d0a8c1@syzkaller.appspotmail.com>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 1);
	ck_assert_str_eq(rt.trailers.items[0],
			 "Reported-and-tested-by: syzbot+4e9d6c6ab7e5e8d0a8c1@syzkaller.appspotmail.com");
	sm_reply_text_release(&rt);
}
END_TEST

/* The comment and the number of trailers sm_reply_extract reads in body */
static void expect_comment(const char *body, const char *author, const char *comment,
			   size_t nr_trailers)
{
	struct sm_reply_text rt;

	sm_reply_extract(body, author, &rt);
	ck_assert_str_eq(rt.comment, comment);
	ck_assert_uint_eq(rt.trailers.nr, nr_trailers);
	sm_reply_text_release(&rt);
}

/* Real replies from the list corpus: an attribution wrapped before its
 * "wrote:" (Claws Mail, Gmail at a long address), and Outlook's top-posted
 * replies, whose original follows unquoted with its trailers */
START_TEST(reply_wrapped_attribution_and_top_posting)
{
	struct sm_reply_text rt;

	sm_reply_extract("On Fri, 19 Sep 2025 14:11:37 +0200\n"
			 "Christian K\xc3\xb6nig <christian.koenig@amd.com> wrote:\n\n"
			 "> On 19.09.25 12:17, Eliav Farber wrote:\n> > This series\n\n"
			 "They will be about removing local definitions.\n",
			 "David Laight <david.laight.linux@gmail.com>", &rt);
	ck_assert_str_eq(rt.comment, "They will be about removing local definitions.");
	sm_reply_text_release(&rt);

	sm_reply_extract("Fine by me.\n\nOn Mon, Jan 1, 2024 at 10:00 AM Greg KH <\n"
			 "gregkh@linuxfoundation.org> wrote:\n> a patch\nAnd this too.\n",
			 "A <a@b.c>", &rt);
	ck_assert_str_eq(rt.comment, "Fine by me.\n\nAnd this too.");
	sm_reply_text_release(&rt);

	sm_reply_extract("Hi Andrew,\n\nThanks for your reply.\n\nRush\n\n"
			 "-----Original Message-----\n"
			 "From: Andrew Jeffery <andrew@codeconstruct.com.au>\n"
			 "Sent: Friday, February 7, 2025 7:48 AM\n\n"
			 "Hi Rush,\n\nReviewed-by: Andrew Jeffery <andrew@codeconstruct.com.au>\n",
			 "Rush Chen <Rush_Chen@wiwynn.com>", &rt);
	ck_assert_str_eq(rt.comment, "Hi Andrew,\n\nThanks for your reply.\n\nRush");
	ck_assert_uint_eq(rt.trailers.nr, 0);
	ck_assert_uint_eq(rt.unverified.nr, 0);
	sm_reply_text_release(&rt);

	sm_reply_extract("Looks good to me.\n\n________________________________\n"
			 "From: X <x@y.example>\nSent: Monday, July 1, 2024 9:00\n"
			 "Signed-off-by: X <x@y.example>\n", "X <x@y.example>", &rt);
	ck_assert_str_eq(rt.comment, "Looks good to me.");
	ck_assert_uint_eq(rt.trailers.nr, 0);
	sm_reply_text_release(&rt);

	/* an attribution in French, German */
	expect_comment("Le 11/09/2024 \xc3\xa0 14:25, Wenliang a \xc3\xa9" "crit\xc2\xa0:\n> x\n\n"
		       "Nitpick: Missing space before }\n\nAm 1. Jan 2024 schrieb A:\n> y\n\nCJ\n",
		       "Christophe JAILLET <christophe.jaillet@wanadoo.fr>",
		       "Nitpick: Missing space before }\n\nCJ", 0);
	/* Sup's attribution (the list corpus's notmuch thread), alot's and
	 * Lotus Notes'; their words as one's own text, with no quote under
	 * them, stay */
	expect_comment("Excerpts from Stefan Schmidt's message of Thu Nov 26 09:17:15 +0100 2009:\n"
		       "> This fixes a visual glitch during a silent compile.\n\n"
		       "Looks right, works here with bash, dash & zsh, so:\n\n"
		       "Reviewed-by: Ingmar Vanhassel <ingmar@exherbo.org>\n\n"
		       "Quoting Stephen Boyd (2023-10-05 03:47:50)\n> y\n\nThanks!\n\n"
		       "Steve French <smfrench@gmail.com> wrote on 06/25/2010 04:05:30 PM:\n\n> z\n",
		       "Ingmar Vanhassel <ingmar@exherbo.org>",
		       "Looks right, works here with bash, dash & zsh, so:\n\nThanks!", 1);
	expect_comment("Quoting the spec (4.2):\n\nthe bit is reserved.\n\nExcerpts from A's message of"
		       " today:\nwere not quoted.\n", "A <a@b.c>",
		       "Quoting the spec (4.2):\n\nthe bit is reserved.\n\n"
		       "Excerpts from A's message of today:\nwere not quoted.", 0);
	/* David Miller's attribution (the answered mail's From: and Date:,
	 * then the quote), Wanderlust's "At DATE," over "A wrote:", and a
	 * SourceForge list's advert and footer: the list corpus's 2010 LKML
	 * threads, whose "Applied." was lost or came with the advert */
	expect_comment("From: Joe Perches <joe@perches.com>\nDate: Sun, 14 Nov 2010 19:04:33 -0800\n\n"
		       "> Signed-off-by: Joe Perches <joe@perches.com>\n\nApplied.\n\n"
		       "------------------------------------------------------------------------------\n"
		       "Centralized Desktop Delivery: Dell and VMware Reference Architecture\n"
		       "http://p.sf.net/sfu/dell-eql-dev2dev\n"
		       "_______________________________________________\nE1000-devel mailing list\n"
		       "E1000-devel@lists.sourceforge.net\n", "David Miller <davem@davemloft.net>",
		       "Applied.", 0);
	expect_comment("At Sun, 14 Nov 2010 19:05:02 -0800,\nJoe Perches wrote:\n> \n"
		       "> Signed-off-by: Joe Perches <joe@perches.com>\n\nApplied now.  Thanks.\n",
		       "Takashi Iwai <tiwai@suse.de>", "Applied now.  Thanks.", 0);
	/* A long quoted line's end that Lotus Notes or Outlook wrapped unquoted
	 * (Mingming Cao's reply of 2010) is the quote's; an answer in the
	 * quote, a short line above it or a capital stays the reply's */
	expect_comment("> > > Looks like it mostly uses the ctime. IMO, the mtime would be a\nbetter\n"
		       "> > > choice since it changes less frequently.\n"
		       "> > Note that Ext4 appears to have a file creation time field in its\ninode\n"
		       "> > (struct ext4_inode::i_crtime[_extra]).  Can Samba be made to use it\n"
		       "that?\n> > \n\nNot yet.\n", "Mingming Cao <mcao@us.ibm.com>", "Not yet.", 0);
	expect_comment("> +\tret = foo(dev);\nleaks dev\n> +\treturn ret;\n"
		       "> Note that Ext4 appears to have a file creation time field in its\nWrong.\n"
		       "> x\n> Note that Ext4 appears to have a file creation time field in its\n"
		       "and a third word\n> y\n"
		       "> Note that Ext4 appears to have a file creation time field in its\n+1\n> z\n",
		       "A <a@b.c>", "leaks dev\nWrong.\nand a third word\n+1", 0);
	/* Outlook's header block over the original, unquoted: still the end */
	expect_comment("Looks good.\n\nFrom: X <x@y.example>\nDate: Monday, July 1, 2024 9:00\n\n"
		       "Signed-off-by: X <x@y.example>\n", "X <x@y.example>", "Looks good.", 0);

	/* PGP's armour is no original: the signed text is the reply */
	sm_reply_extract("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n"
			 "Reviewed-by: A <a@b.c>\n", "A <a@b.c>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 1);
	sm_reply_text_release(&rt);
}
END_TEST

/* A kernel test robot report (the shape of the hwmon list's replies of
 * 2024 and of the robot's older "Thank you for the patch!" ones): the gist
 * is the headline, tree, config, compiler and the new findings, which the
 * robot marks with ">>" as a mail reader marks quotes; no trailers. */
static const char robot_build_error[] =
	"Hi Wenliang,\n\n"
	"kernel test robot noticed the following build errors:\n\n"
	"[auto build test ERROR on linux/master]\n\n"
	"url:    https://github.com/intel-lab-lkp/linux/commits/Wenliang/hwmon-sq52205/20240826-103932\n"
	"base:   linux/master\n"
	"patch link:    https://lore.kernel.org/r/20240822074426.7241-1-wenliang202407%40163.com\n"
	"patch subject: [PATCH linux dev 6.11] hwmon:add new hwmon driver sq52205\n"
	"config: x86_64-allyesconfig (https://download.01.org/0day-ci/archive/20240826/202408261627.lm2xKacD-lkp@intel.com/config)\n"
	"compiler: clang version 18.1.5 (https://github.com/llvm/llvm-project 617a15a9eac96088ae5e9134248d8236e34b91b1)\n"
	"reproduce (this is a W=1 build): (https://download.01.org/0day-ci/archive/20240826/202408261627.lm2xKacD-lkp@intel.com/reproduce)\n\n"
	"If you fix the issue in a separate patch/commit (i.e. not just a new version of\n"
	"the same patch/commit), kindly add following tags\n"
	"| Reported-by: kernel test robot <lkp@intel.com>\n"
	"| Closes: https://lore.kernel.org/oe-kbuild-all/202408261627.lm2xKacD-lkp@intel.com/\n\n"
	"All errors (new ones prefixed by >>):\n\n"
	"   In file included from drivers/hwmon/sq52205.c:12:\n"
	">> drivers/hwmon/sq52205.c:493:37: error: cannot assign to variable 'sq522xx_regmap_config' with const-qualified type 'const struct regmap_config'\n"
	"     493 |         sq522xx_regmap_config.max_register = data->config->registers;\n"
	"         |         ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~ ^\n"
	"   drivers/hwmon/sq52205.c:67:35: note: variable 'sq522xx_regmap_config' declared const here\n\n\n"
	"vim +493 drivers/hwmon/sq52205.c\n\n"
	"   491		data->rshunt = val;\n"
	" > 493		sq522xx_regmap_config.max_register = data->config->registers;\n\n"
	"-- \n"
	"0-DAY CI Kernel Test Service\n"
	"https://github.com/intel/lkp-tests/wiki\n";

START_TEST(reply_robot_report_gist)
{
	struct sm_reply_text rt;
	struct strbuf many = STRBUF_INIT;

	sm_reply_extract(robot_build_error, "kernel test robot <lkp@intel.com>", &rt);
	ck_assert_str_eq(rt.comment,
			 "kernel test robot noticed the following build errors:\n"
			 "[auto build test ERROR on linux/master]\n"
			 "config: x86_64-allyesconfig\n"
			 "compiler: clang version 18.1.5\n\n"
			 "All errors (new ones prefixed by >>):\n"
			 ">> drivers/hwmon/sq52205.c:493:37: error: cannot assign to variable "
			 "'sq522xx_regmap_config' with const-qualified type 'const struct regmap_config'");
	ck_assert_uint_eq(rt.trailers.nr, 0);
	ck_assert_uint_eq(rt.unverified.nr, 0);
	sm_reply_text_release(&rt);

	/* the same text from a person is a reply like any other */
	sm_reply_extract(robot_build_error, "Guenter Roeck <linux@roeck-us.net>", &rt);
	ck_assert_ptr_nonnull(strstr(rt.comment, "url:    https://github.com/intel-lab-lkp"));
	ck_assert_ptr_null(strstr(rt.comment, ">> drivers/hwmon"));
	sm_reply_text_release(&rt);

	/* the older form: its suggested Reported-by: unquoted, the config
	 * attached, a reproduce block, smatch's new and old warnings */
	sm_reply_extract("Hi Foo,\n\n"
			 "Thank you for the patch! Perhaps something to improve:\n\n"
			 "[auto build test WARNING on groeck-staging/hwmon-next]\n"
			 "[also build test WARNING on v5.15-rc2 next-20210922]\n"
			 "[If your patch is applied to the wrong git tree, kindly drop us a note.\n"
			 "And when submitting patch, we suggest to use '--base' as documented in\n"
			 "https://git-scm.com/docs/git-format-patch]\n\n"
			 "config: i386-randconfig-m021-20210922 (attached as .config)\n"
			 "compiler: gcc-9 (Debian 9.3.0-22) 9.3.0\n"
			 "reproduce (this is a W=1 build):\n"
			 "        make W=1 ARCH=i386\n\n"
			 "If you fix the issue, kindly add following tag as appropriate\n"
			 "Reported-by: kernel test robot <lkp@intel.com>\n\n"
			 "New smatch warnings:\n"
			 "drivers/hwmon/foo.c:123 foo_probe() warn: variable dereferenced before check 'data' (see line 120)\n\n"
			 "Old smatch warnings:\n"
			 "drivers/hwmon/foo.c:99 foo_read() warn: inconsistent indenting\n\n"
			 "vim +123 drivers/hwmon/foo.c\n\n"
			 "---\n"
			 "0-DAY CI Kernel Test Service, Intel Corporation\n",
			 "kernel test robot <lkp@intel.com>", &rt);
	ck_assert_str_eq(rt.comment,
			 "Thank you for the patch! Perhaps something to improve:\n"
			 "[auto build test WARNING on groeck-staging/hwmon-next]\n"
			 "[also build test WARNING on v5.15-rc2 next-20210922]\n"
			 "config: i386-randconfig-m021-20210922\n"
			 "compiler: gcc-9 (Debian 9.3.0-22) 9.3.0\n\n"
			 "New smatch warnings:\n"
			 "drivers/hwmon/foo.c:123 foo_probe() warn: variable dereferenced before check "
			 "'data' (see line 120)");
	ck_assert_uint_eq(rt.trailers.nr, 0);
	sm_reply_text_release(&rt);

	/* a long list of new warnings: 20 kept, the rest counted */
	strbuf_addstr(&many, "kernel test robot noticed the following build warnings:\n\n"
			     "All warnings (new ones prefixed by >>):\n\n");
	for (int i = 1; i <= 23; i++)
		strbuf_addf(&many, ">> drivers/x.c:%d:5: warning: no previous prototype\n", i);
	sm_reply_extract(many.buf, "kernel test robot <lkp@intel.com>", &rt);
	ck_assert_ptr_nonnull(strstr(rt.comment, "drivers/x.c:20:5:"));
	ck_assert_ptr_null(strstr(rt.comment, "drivers/x.c:21:5:"));
	ck_assert_ptr_nonnull(strstr(rt.comment, "\n[and 3 more]"));
	sm_reply_text_release(&rt);
	strbuf_release(&many);

	/* the robot's mail without a report's headline: read as any reply */
	sm_reply_extract("Thanks, the retest passed.\n", "kernel test robot <lkp@intel.com>", &rt);
	ck_assert_str_eq(rt.comment, "Thanks, the retest passed.");
	sm_reply_text_release(&rt);
}
END_TEST

START_TEST(reply_nak_and_inline_patch)
{
	struct sm_reply_text rt;

	sm_reply_extract("> patch\n\nNACK. The patch introducing the problem needs to be reverted.\n",
			 "Guenter Roeck <linux@roeck-us.net>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 1);
	ck_assert_str_eq(rt.trailers.items[0], "Nacked-by: Guenter Roeck <linux@roeck-us.net>");
	sm_reply_text_release(&rt);

	sm_reply_extract("NAK\n", "A <a@b.c>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 1);
	sm_reply_text_release(&rt);

	/* "NAKED" or "Nakamura" are words, not NAKs. */
	sm_reply_extract("Nakamura-san said so.\nNAKED eye\n", "A <a@b.c>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 0);
	sm_reply_text_release(&rt);

	/* A patch pasted in the reply: its trailers are the patch's, not the replier's. */
	sm_reply_extract("How about this instead?\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n"
			 "Reviewed-by: A <a@b.c>\n", "A <a@b.c>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 0);
	ck_assert_str_eq(rt.comment, "How about this instead?");
	sm_reply_text_release(&rt);

	/* A new version sent as a reply (Joe Perches' "V2: against -next" of
	 * 2010): its sign-off, "---" and diffstat are the patch's too. */
	sm_reply_extract("> +\tx = 1;;\n\nSigned-off-by: Joe Perches <joe@perches.com>\n---\n"
			 "V2: against -next\n\n wm8904.c |    2 +-\n 1 files changed\n\n"
			 "diff --git a/wm8904.c b/wm8904.c\n", "Joe Perches <joe@perches.com>", &rt);
	ck_assert_str_eq(rt.comment, "");
	sm_reply_text_release(&rt);
	sm_reply_extract("Right, this one instead:\n\nSigned-off-by: A <a@b.c>\n---\n"
			 "diff --git a/x b/x\n", "A <a@b.c>", &rt);
	ck_assert_str_eq(rt.comment, "Right, this one instead:");
	sm_reply_text_release(&rt);
	/* git's scissors: what follows is the patch, its message included */
	sm_reply_extract("Does this work for you?\n\n-- >8 --\nSubject: x: fix y\n\nBecause.\n\n"
			 "diff --git a/x b/x\n", "A <a@b.c>", &rt);
	ck_assert_str_eq(rt.comment, "Does this work for you?");
	sm_reply_text_release(&rt);
	/* a "---" and a sign-off with no patch under them stay words */
	sm_reply_extract("Looks fine.\n---\nSigned-off-by: not really\n", "A <a@b.c>", &rt);
	ck_assert_str_eq(rt.comment, "Looks fine.\n---\nSigned-off-by: not really");
	sm_reply_text_release(&rt);
}
END_TEST

/* Decorated addresses are cleaned; only the sender (or an alias) signs. */
START_TEST(reply_trailer_identity)
{
	static const char *const in[][2] = {
		{ "A B <a@b.example<mailto:a@b.example>>", "A B <a@b.example>" },
		{ "A B <mailto:a@b.example>", "A B <a@b.example>" },
		{ "A B a@b.example [mailto:a@b.example]", "A B <a@b.example>" },
		{ "A B &lt;a@b.example&gt;", "A B <a@b.example>" },
		{ "  a@b.example  ", "a@b.example" },
		{ "A B <a@b.example>", "A B <a@b.example>" },
		{ "A B (no address)", "A B (no address)" },
	};
	struct sm_aliases al = SM_ALIASES_INIT;
	struct sm_reply_text rt;

	for (size_t i = 0; i < ARRAY_SIZE(in); i++) {
		struct strbuf sb = STRBUF_INIT;

		sm_ident_clean(in[i][0], strlen(in[i][0]), &sb);
		ck_assert_str_eq(sb.buf, in[i][1]);
		strbuf_release(&sb);
	}
	ck_assert_int_eq(sm_aliases_parse(&al, "# x\nR <r@a.example> <R@B.example>\n\nS <s@c.example>\n",
					  "aliases"), 0);
	ck_assert_int_eq(sm_aliases_same(&al, "r@b.example", "r@a.example"), 1);
	ck_assert_int_eq(sm_aliases_same(&al, "s@c.example", "r@a.example"), 0);
	ck_assert_int_eq(sm_aliases_same(&al, "", ""), 0);
	ck_assert_int_eq(sm_aliases_parse(&al, "R r@a.example\n", "f"), -1);
	ck_assert_str_eq(sm_last_error(), "f:1: no <address> on the line");

	sm_reply_extract_verified("Reviewed-by: R <r@a.example>\nAcked-by: S <s@c.example>\n"
				  "Tested-by: r <R@b.example<mailto:R@b.example>>\n",
				  "R <r@b.example>", &al, &rt);
	ck_assert_uint_eq(rt.trailers.nr, 2);
	ck_assert_str_eq(rt.trailers.items[1], "Tested-by: r <R@b.example>");
	ck_assert_uint_eq(rt.unverified.nr, 1);
	ck_assert_str_eq(rt.unverified.items[0], "Acked-by: S <s@c.example> (sent by R <r@b.example>)");
	sm_reply_text_release(&rt);
	/* The same name from another address is not the same person. */
	sm_reply_extract("Reviewed-by: Greg KH <gregkh@linuxfoundation.org>\n",
			 "Greg KH <attacker@evil.example>", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 0);
	ck_assert_uint_eq(rt.unverified.nr, 1);
	sm_reply_text_release(&rt);
	/* No sender: nothing is verified, a bare NAK names nobody. */
	sm_reply_extract("NAK\nFixes: 0123456789ab (\"x\")\n", "", &rt);
	ck_assert_uint_eq(rt.trailers.nr, 0);
	ck_assert_uint_eq(rt.unverified.nr, 1);
	sm_reply_text_release(&rt);
	sm_aliases_release(&al);
}
END_TEST

/* The patch mail a commit's trailers name, as maintainers' tools write
 * them (b4, git am -m, netdev's patch.msgid.link, Andrew Morton's lkml
 * links): harvest maps a reviewed mail to the commit that applied it. */
START_TEST(msgid_from_commit_trailers)
{
	static const struct {
		const char *line, *id;
	} cases[] = {
		{ "Link: https://lore.kernel.org/r/20240102.GA1@roeck-us.net", "20240102.GA1@roeck-us.net" },
		{ "Link: https://lore.kernel.org/r/20240102.GA1@roeck-us.net/", "20240102.GA1@roeck-us.net" },
		{ "Link: https://lore.kernel.org/linux-hwmon/a1b2@suse.cz/#t", "a1b2@suse.cz" },
		{ "Link: https://lore.kernel.org/all/a1b2@suse.cz/T/#u", "a1b2@suse.cz" },
		{ "Link: https://patch.msgid.link/20241203-x-v2-1-abc@kernel.org", "20241203-x-v2-1-abc@kernel.org" },
		{ "link: http://lkml.kernel.org/r/1234.5678@akpm.example  ", "1234.5678@akpm.example" },
		{ "Link: https://lore.kernel.org/r/a%2Fb%40c@x.example", "a/b@c@x.example" },
		{ "Link: https://lore.kernel.org/r/%3Cid@x.example%3E", "id@x.example" },
		{ "Message-Id: <20240102.GA1@roeck-us.net>", "20240102.GA1@roeck-us.net" },
		{ "Link: https://patchwork.freedesktop.org/patch/msgid/20210413094904.3736372-10-daniel.vetter@ffwll.ch",
		  "20210413094904.3736372-10-daniel.vetter@ffwll.ch" },
		{ "Link: https://patchwork.freedesktop.org/patch/512345/", NULL },
		{ "Link: https://bugzilla.kernel.org/show_bug.cgi?id=1", NULL },
		{ "Link: https://lore.kernel.org/r/not-an-address", NULL },
		{ "Link: https://lore.kernel.org/", NULL },
		{ "Closes: https://lore.kernel.org/r/a@b", NULL },
		{ "Reported-by: a <a@b>", NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *id = sm_msgid_from_trailer(cases[i].line, strlen(cases[i].line));

		if (!cases[i].id)
			ck_assert_msg(id == NULL, "%s: %s", cases[i].line, id);
		else
			ck_assert_msg(id && !strcmp(id, cases[i].id), "%s: %s", cases[i].line,
				      id ? id : "(none)");
		free(id);
	}
}
END_TEST

START_TEST(msgid_checks)
{
	struct strbuf sb = STRBUF_INIT;
	char *c;

	ck_assert_int_eq(sm_msgid_is_key("foo bar"), 0);
	ck_assert_int_eq(sm_msgid_is_key("<>"), 0);
	ck_assert_int_eq(sm_msgid_is_key("a<b@x"), 0);
	ck_assert_int_eq(sm_msgid_is_key(""), 0);
	ck_assert_int_eq(sm_msgid_is_key("notmuch-sha1-0a"), 1);
	ck_assert_int_eq(sm_msgid_is_address("notmuch-sha1-0a"), 0);
	ck_assert_int_eq(sm_msgid_is_address("@x"), 0);
	ck_assert_int_eq(sm_msgid_is_address("a@"), 0);
	ck_assert_int_eq(sm_msgid_is_address("a@x"), 1);
	sm_msgid_url_escape("../a/b?c#d%e f@x.example", &sb);
	ck_assert_str_eq(sb.buf, "..%2Fa%2Fb%3Fc%23d%25e%20f@x.example");
	strbuf_release(&sb);
	/* notmuch 0.37 names a 180-character id so (checked against notmuch itself
	 * in tests/mail_trust.sh). */
	{
		char id[192];

		memset(id, 'p', 180);
		strcpy(id + 180, "@kernel.org");
		c = sm_msgid_notmuch_compressed(id);
		ck_assert_str_eq(c, "notmuch-sha1-790d7530bef9de8ce5b7819a20f1d31fabb984ee");
		free(c);
	}
}
END_TEST

/* ---- gmime parsing ---- */

START_TEST(parse_latin1_qp_rfc2047)
{
	struct sm_mail m;
	struct sm_reply_text rt;

	ck_assert_int_eq(sm_mail_parse_file(&m, srcdir_path("tests/fixtures/mail/latin1-reply.eml")), 0);
	ck_assert_str_eq(m.from, "J\xc3\xb6rg M\xc3\xbcller <joerg@example.de>");
	ck_assert_str_eq(m.subject, "Re: [PATCH 6.1 001/002] hwmon: (lm90) Fix the limit");
	ck_assert_str_eq(m.message_id, "latin1-reply@example.de");
	ck_assert_str_eq(m.in_reply_to, "p1@kernel.org");
	ck_assert_uint_eq(m.references.nr, 2);
	ck_assert_ptr_nonnull(strstr(m.body, "F\xc3\xbcr mich sieht das gut aus, gr\xc3\xbc\xc3\x9f" "e."));
	sm_reply_extract(m.body, m.from, &rt);
	ck_assert_uint_eq(rt.trailers.nr, 1);
	ck_assert_str_eq(rt.trailers.items[0], "Reviewed-by: J\xc3\xb6rg M\xc3\xbcller <joerg@example.de>");
	ck_assert_str_eq(rt.comment, "F\xc3\xbcr mich sieht das gut aus, gr\xc3\xbc\xc3\x9f" "e.");
	sm_reply_text_release(&rt);
	sm_mail_release(&m);
}
END_TEST

START_TEST(parse_base64)
{
	struct sm_mail m;

	ck_assert_int_eq(sm_mail_parse_file(&m, srcdir_path("tests/fixtures/mail/base64-tested.eml")), 0);
	ck_assert_ptr_nonnull(strstr(m.body, "Tested-by: Ren\xc3\xa9 Tester <rene@example.org>"));
	ck_assert(m.time == 1719831600);
	sm_mail_release(&m);
}
END_TEST

START_TEST(parse_broken)
{
	struct sm_mail m;
	const char *f = srcdir_path("tests/fixtures/mail/broken.eml");

	ck_assert_int_eq(sm_mail_parse_file(&m, f), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "broken.eml"));
	ck_assert_ptr_null(strchr(sm_last_error(), '\n'));
	sm_mail_release(&m);
}
END_TEST

/* A subject gmime decodes to nothing (base64 it cannot read) keeps its
 * text as sent, not "": a subject-less mail would have its body's first
 * line taken for its title. An encoded word that decodes is decoded. */
START_TEST(parse_subject_undecodable)
{
	static const char *const cases[][2] = {
		{ "=?UTF-8?B?!!!?=", "=?UTF-8?B?!!!?=" },
		{ " =?UTF-8?B?!!!?=\n =?UTF-8?B?***?=", "=?UTF-8?B?!!!?= =?UTF-8?B?***?=" },
		{ "=?UTF-8?Q?hwmon:_caf=C3=A9?= fix", "hwmon: caf\xc3\xa9 fix" },
		{ "", "" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *msg = xasprintf("From: A <a@example.org>\nSubject: %s\nMessage-ID: <s%zu@x>\n\n"
				      "The body's first line.\n", cases[i][0], i);
		struct sm_mail m;

		ck_assert_int_eq(sm_mail_parse(&m, msg, strlen(msg), "subject.eml"), 0);
		ck_assert_str_eq(m.subject, cases[i][1]);
		sm_mail_release(&m);
		free(msg);
	}
}
END_TEST

/* Real patchwork mails with invalid charsets and header bytes: parsed, valid UTF-8. */
START_TEST(parse_patchwork_charsets)
{
	static const char *const files[] = {
		"corpus/patchwork/mail/0010-invalid-charset.mbox",
		"corpus/patchwork/mail/0012-invalid-header-char.mbox",
		"corpus/patchwork/mail/0013-with-utf8-body.mbox",
		"corpus/patchwork/mail/0014-with-unencoded-utf8-headers.mbox",
		"corpus/patchwork/mail/0015-with-invalid-utf8-headers.mbox",
		"corpus/patchwork/mail/0019-multipart-patch.mbox",
	};

	if (shared_missing(__func__))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct strbuf sb = STRBUF_INIT;
		struct sm_mail m;

		ck_assert_int_eq(sm_mbox_read(shared_path(files[i]), &sb), 0);
		ck_assert_int_eq(sm_mail_parse(&m, sb.buf, sb.len, files[i]), 0);
		ck_assert_msg(g_utf8_validate(m.subject, -1, NULL), "%s subject", files[i]);
		ck_assert_msg(g_utf8_validate(m.body, -1, NULL), "%s body", files[i]);
		ck_assert_msg(m.has_diff, "%s: diff not found", files[i]);
		sm_mail_release(&m);
		strbuf_release(&sb);
	}
}
END_TEST

/* ---- threads ---- */

struct load_ctx {
	struct sm_thread *t;
	const char *name;
	unsigned broken;
};

static int load_one(const char *msg, size_t len, void *data)
{
	struct load_ctx *c = data;
	struct sm_mail m;

	if (sm_mail_parse(&m, msg, len, c->name) < 0) {
		fprintf(stderr, "test_mail: %s\n", sm_last_error());
		c->broken++;
		sm_mail_release(&m);
		return 0;
	}
	sm_thread_add(c->t, &m, 1);
	return 0;
}

static unsigned load_mbox(struct sm_thread *t, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct load_ctx c = { t, path, 0 };

	ck_assert_msg(sm_mbox_read(path, &sb) == 0, "%s: %s", path, sm_last_error());
	ck_assert_int_ge(sm_mbox_split(sb.buf, sb.len, load_one, &c), 0);
	strbuf_release(&sb);
	return c.broken;
}

/* An mbox in text[0..len) as a resolved thread; every mail must parse. */
static void thread_from_text(struct sm_thread *t, const char *text, size_t len, const char *name)
{
	struct load_ctx c = { t, name, 0 };

	ck_assert_int_ge(sm_mbox_split(text, len, load_one, &c), 0);
	ck_assert_uint_eq(c.broken, 0);
	sm_thread_resolve(t, NULL);
}

static size_t find_mail(const struct sm_thread *t, const char *msgid)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->mails[i].mail.message_id, msgid))
			return i;
	ck_abort_msg("no mail <%s>", msgid);
	return 0;
}

/* Trailers attributed to patch p, over all its reviews. */
static void patch_trailers(const struct sm_thread *t, size_t p, struct strlist *out, int *via_cover)
{
	for (size_t i = 0; i < t->nr_reviews; i++) {
		const struct sm_thread_review *r = &t->reviews[i];
		const struct sm_mail *m = &t->mails[r->reply].mail;
		struct sm_reply_text rt;

		if (r->patch != p)
			continue;
		sm_reply_extract(m->body, m->from, &rt);
		for (size_t k = 0; k < rt.trailers.nr; k++)
			if (!strlist_contains(out, rt.trailers.items[k]))
				strlist_append(out, rt.trailers.items[k]);
		if (via_cover && rt.trailers.nr)
			*via_cover |= r->via_cover;
		sm_reply_text_release(&rt);
	}
}

START_TEST(thread_cover_reply_and_bot)
{
	struct sm_thread t = SM_THREAD_INIT;
	struct strlist tr = STRLIST_INIT;
	int via = 0;
	size_t p1, p2;

	ck_assert_uint_eq(load_mbox(&t, srcdir_path("tests/fixtures/mail/stable-thread.mbox.in")), 0);
	ck_assert_uint_eq(t.nr, 7);
	sm_thread_resolve(&t, "bot@stablemate.example");
	ck_assert_int_eq(t.mails[find_mail(&t, "cover@kernel.org")].kind, SM_MAIL_COVER);
	p1 = find_mail(&t, "p1@kernel.org");
	p2 = find_mail(&t, "p2@kernel.org");
	ck_assert_int_eq(t.mails[p1].kind, SM_MAIL_PATCH);
	ck_assert_uint_eq(t.mails[p1].cover, find_mail(&t, "cover@kernel.org"));

	patch_trailers(&t, p1, &tr, &via);
	/* Tested-by via the cover, Reviewed-by of its own; the quoted one and the bot's not. */
	ck_assert_uint_eq(tr.nr, 2);
	ck_assert(strlist_contains(&tr, "Tested-by: Jon Hunter <jonathanh@nvidia.com>"));
	ck_assert(strlist_contains(&tr, "Reviewed-by: Rita Reviewer <reviewer@example.com>"));
	strlist_clear(&tr);

	via = 0;
	patch_trailers(&t, p2, &tr, &via);
	ck_assert_uint_eq(tr.nr, 2);
	ck_assert(strlist_contains(&tr, "Nacked-by: Guenter Maintainer <guenter@example.net>"));
	ck_assert(via);
	strlist_clear(&tr);

	sm_thread_release(&t);
}
END_TEST

/* A reply to a -rc review's cover letter that quotes the one shortlog
 * entry it is about (the shape of Jon Hunter's 5.15.160-rc1 regression
 * report) is about that patch; a Tested-by that quotes the cover's top,
 * or its whole shortlog, is about all of them */
START_TEST(cover_reply_names_its_patch)
{
	static const char mbox[] =
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\nSubject: [PATCH 5.15 00/03] 5.15.160-rc1 review\n"
		"Message-ID: <c@kernel.org>\n\n"
		"This is the start of the stable review cycle for the 5.15.160 release.\n\n"
		"-------------\nPseudo-Shortlog of commits:\n\n"
		"NeilBrown <neilb@suse.de>\n    nfsd: don't allow nfsd threads to be signalled.\n\n"
		"Guenter Roeck <linux@roeck-us.net>\n    hwmon: (lm90) Fix the alarm limits\n\n"
		"Jon Doe <jd@example.org>\n    net: dsa: fix a refcount leak\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\n"
		"Subject: [PATCH 5.15 01/03] nfsd: don't allow nfsd threads to be signalled.\n"
		"Message-ID: <p1@kernel.org>\nIn-Reply-To: <c@kernel.org>\n\nx\n---\ndiff --git a/x b/x\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\n"
		"Subject: [PATCH 5.15 02/03] hwmon: (lm90) Fix the alarm limits\n"
		"Message-ID: <p2@kernel.org>\nIn-Reply-To: <c@kernel.org>\n\ny\n---\ndiff --git a/y b/y\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\n"
		"Subject: [PATCH 5.15 03/03] net: dsa: fix a refcount leak\n"
		"Message-ID: <p3@kernel.org>\nIn-Reply-To: <c@kernel.org>\n\nz\n---\ndiff --git a/z b/z\n"
		/* the regression report: one shortlog entry quoted */
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Jon Hunter <jonathanh@nvidia.com>\nSubject: Re: [PATCH 5.15 00/03] 5.15.160-rc1 review\n"
		"Message-ID: <r1@nvidia.com>\nIn-Reply-To: <c@kernel.org>\n\n"
		"On 23/05/2024 14:12, Greg Kroah-Hartman wrote:\n"
		"> This is the start of the stable review cycle for the 5.15.160 release.\n\n...\n\n"
		"> NeilBrown <neilb@suse.de>\n>     nfsd: don't allow nfsd threads to be signalled.\n\n\n"
		"I am seeing a suspend regression on a couple boards and bisect is\n"
		"pointing to the above commit. Reverting this commit does fix the issue.\n\n"
		"NAK\n"
		/* a test of the whole series: the cover's top quoted */
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Mark Brown <broonie@kernel.org>\nSubject: Re: [PATCH 5.15 00/03] 5.15.160-rc1 review\n"
		"Message-ID: <r2@kernel.org>\nIn-Reply-To: <c@kernel.org>\n\n"
		"> This is the start of the stable review cycle for the 5.15.160 release.\n\n"
		"Tested-by: Mark Brown <broonie@kernel.org>\n"
		/* the whole shortlog quoted, a Tested-by and words: all of them */
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Tess Tester <tess@example.org>\nSubject: Re: [PATCH 5.15 00/03] 5.15.160-rc1 review\n"
		"Message-ID: <r3@example.org>\nIn-Reply-To: <c@kernel.org>\n\n"
		"> NeilBrown <neilb@suse.de>\n>     nfsd: don't allow nfsd threads to be signalled.\n>\n"
		"> Guenter Roeck <linux@roeck-us.net>\n>     hwmon: (lm90) Fix the alarm limits\n>\n"
		"> Jon Doe <jd@example.org>\n>     net: dsa: fix a refcount leak\n\n"
		"Boots on my boards.\n\nTested-by: Tess Tester <tess@example.org>\n";
	struct sm_thread t = SM_THREAD_INIT;
	/* each reply read once for its three patches */
	struct sm_reply_cache replies = SM_REPLY_CACHE_INIT;
	size_t p1;
	unsigned jon = 0, mark = 0, tess = 0;

	thread_from_text(&t, mbox, sizeof(mbox) - 1, "objection.mbox");
	p1 = find_mail(&t, "p1@kernel.org");
	for (size_t i = 0; i < t.nr_reviews; i++) {
		const struct sm_thread_review *tr = &t.reviews[i];
		const char *from = t.mails[tr->reply].mail.message_id;
		struct sm_review rv;
		int said = sm_review_from_thread(&t, tr, NULL, &replies, &rv);

		ck_assert(tr->via_cover);
		if (!strcmp(from, "r1@nvidia.com")) {
			/* the report: about the nfsd patch, and nothing to say of the others */
			ck_assert_int_eq(tr->names, tr->patch == p1 ? 1 : -1);
			ck_assert_int_eq(said, tr->patch == p1);
			if (said) {
				/* and its NAK with it, for no other patch */
				ck_assert(strstr(rv.comment, "suspend regression"));
				ck_assert_uint_eq(rv.trailers.nr, 1);
				ck_assert_str_eq(rv.trailers.items[0], "Nacked-by: Jon Hunter <jonathanh@nvidia.com>");
			}
			jon += said;
		} else if (!strcmp(from, "r2@kernel.org")) {
			ck_assert_int_eq(tr->names, 0);
			ck_assert_int_eq(said, 1);
			mark++;
		} else {
			ck_assert_str_eq(from, "r3@example.org");
			ck_assert_int_eq(tr->names, 0);
			ck_assert_int_eq(said, 1);
			ck_assert_str_eq(rv.comment, "Boots on my boards.");
			tess++;
		}
		if (said)
			sm_review_release(&rv);
	}
	ck_assert_uint_eq(jon, 1);
	ck_assert_uint_eq(mark, 3);
	ck_assert_uint_eq(tess, 3);
	sm_reply_cache_release(&replies);
	sm_thread_release(&t);
}
END_TEST

/* A reply that ends with the fix it proposes, pasted as git format-patch
 * wrote it (NeilBrown's answer to Jon Hunter's 5.15.160-rc1 regression
 * report), is a patch of its own: the Tested-by answering it is about that
 * fix, for the -rc's tree; the proposer's words review no patch of the
 * series; a Tested-by of the series is not about the fix. */
START_TEST(reply_with_a_pasted_fix)
{
	static const char mbox[] =
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\nSubject: [PATCH 5.15 00/01] 5.15.160-rc1 review\n"
		"Message-ID: <c@kernel.org>\n\nThis is the start of the stable review cycle.\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\n"
		"Subject: [PATCH 5.15 01/01] nfsd: don't allow nfsd threads to be signalled.\n"
		"Message-ID: <p1@kernel.org>\nIn-Reply-To: <c@kernel.org>\n\n"
		"commit 3903902401451b1cd9d797a8c79769eb26ac7fe5 upstream.\n---\ndiff --git a/x b/x\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Jon Hunter <jonathanh@nvidia.com>\nSubject: Re: [PATCH 5.15 00/01] 5.15.160-rc1 review\n"
		"Message-ID: <r1@nvidia.com>\nIn-Reply-To: <c@kernel.org>\n\n"
		"I am seeing a suspend regression on a couple boards.\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: NeilBrown <neilb@suse.de>\nSubject: Re: [PATCH 5.15 00/01] 5.15.160-rc1 review\n"
		"Message-ID: <neil@brown.name>\nIn-Reply-To: <r1@nvidia.com>\nReferences: <c@kernel.org> <r1@nvidia.com>\n\n"
		"> I am seeing a suspend regression on a couple boards.\n\n"
		"Thanks for testing.  Please try this.\n\nThanks,\nNeilBrown\n\n"
		">From 518f0c1150f988b3fe8e5e0d053a25c3aa6c7d44 Mon Sep 17 00:00:00 2001\n"
		"From: NeilBrown <neilb@suse.de>\nDate: Wed, 29 May 2024 09:38:22 +1000\n"
		"Subject: [PATCH] sunrpc: exclude from freezer when waiting for\n requests:\n\n"
		"Prior to v6.1, the freezer will only wake a kernel thread from an\nuninterruptible sleep.\n\n"
		"Signed-off-by: NeilBrown <neilb@suse.de>\n---\n"
		"diff --git a/net/sunrpc/svc_xprt.c b/net/sunrpc/svc_xprt.c\n"
		"--- a/net/sunrpc/svc_xprt.c\n+++ b/net/sunrpc/svc_xprt.c\n@@ -1 +1 @@\n-a\n+b\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Jon Hunter <jonathanh@nvidia.com>\nSubject: Re: [PATCH 5.15 00/01] 5.15.160-rc1 review\n"
		"Message-ID: <r2@nvidia.com>\nIn-Reply-To: <neil@brown.name>\n\n"
		"> Please try this.\n\nYes, that fixes it.\n\nTested-by: Jon Hunter <jonathanh@nvidia.com>\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Mark Brown <broonie@kernel.org>\nSubject: Re: [PATCH 5.15 00/01] 5.15.160-rc1 review\n"
		"Message-ID: <r3@kernel.org>\nIn-Reply-To: <c@kernel.org>\n\n"
		"Tested-by: Mark Brown <broonie@kernel.org>\n";
	struct sm_thread t = SM_THREAD_INIT;
	size_t neil, p1, r2 = 0, r3 = 0;

	thread_from_text(&t, mbox, sizeof(mbox) - 1, "pasted.mbox");
	neil = find_mail(&t, "neil@brown.name");
	p1 = find_mail(&t, "p1@kernel.org");
	ck_assert_int_eq(t.mails[neil].kind, SM_MAIL_PATCH);
	ck_assert(t.mails[neil].is_pasted);
	ck_assert_str_eq(t.mails[neil].ps.title, "sunrpc: exclude from freezer when waiting for requests:");
	ck_assert_str_eq(t.mails[neil].ps.tree, "5.15");
	ck_assert_uint_eq(t.mails[neil].cover, (size_t)-1);
	ck_assert(!strncmp(t.mails[neil].mail.body + t.mails[neil].patch_at, "From 518f0c1150f9", 17));
	ck_assert_uint_eq(t.mails[p1].patch_at, 0);
	for (size_t i = 0; i < t.nr_reviews; i++) {
		const struct sm_thread_review *tr = &t.reviews[i];
		const char *from = t.mails[tr->reply].mail.message_id;

		ck_assert_uint_ne(tr->reply, neil);
		if (!strcmp(from, "r2@nvidia.com")) {
			ck_assert_uint_eq(tr->patch, neil);
			ck_assert(!tr->via_cover);
			r2++;
		} else if (!strcmp(from, "r3@kernel.org")) {
			ck_assert_uint_eq(tr->patch, p1);
			r3++;
		}
	}
	ck_assert_uint_eq(r2, 1);
	ck_assert_uint_eq(r3, 1);
	sm_thread_release(&t);
}
END_TEST

/* A backport series' cover lists its commits: a reply that quotes the
 * first of them talks about the series (Greg's and Eliav Farber's answers
 * on the minmax.h backport); a reply naming a patch in its own words is
 * about that patch */
START_TEST(backport_cover_reply_names_in_own_words)
{
	static const char mbox[] =
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Eliav Farber <farbere@amazon.com>\n"
		"Subject: [PATCH 00/03 5.10.y] Backport minmax.h updates from v6.17-rc6\n"
		"Message-ID: <c@amazon.com>\n\nThe set consists of 3 commits:\n"
		"1) 92d23c6e9415 (\"overflow, tracing: Define the is_signed_type() macro once\")\n"
		"2) 5e57418a2031 (\"minmax: simplify min()/max()/clamp() implementation\")\n"
		"3) 7ed91c5560df (\"minmax: deduplicate __unconst_integer_typeof()\")\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Eliav Farber <farbere@amazon.com>\n"
		"Subject: [PATCH 01/03 5.10.y] overflow, tracing: Define the is_signed_type() macro once\n"
		"Message-ID: <p1@amazon.com>\nIn-Reply-To: <c@amazon.com>\n\nx\n---\ndiff --git a/x b/x\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Eliav Farber <farbere@amazon.com>\n"
		"Subject: [PATCH 02/03 5.10.y] minmax: simplify min()/max()/clamp() implementation\n"
		"Message-ID: <p2@amazon.com>\nIn-Reply-To: <c@amazon.com>\n\ny\n---\ndiff --git a/y b/y\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Eliav Farber <farbere@amazon.com>\n"
		"Subject: [PATCH 03/03 5.10.y] minmax: deduplicate __unconst_integer_typeof()\n"
		"Message-ID: <p3@amazon.com>\nIn-Reply-To: <c@amazon.com>\n\nz\n---\ndiff --git a/z b/z\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\n"
		"Subject: Re: [PATCH 00/03 5.10.y] Backport minmax.h updates from v6.17-rc6\n"
		"Message-ID: <r1@kernel.org>\nIn-Reply-To: <c@amazon.com>\n\n"
		"> 1) 92d23c6e9415 (\"overflow, tracing: Define the is_signed_type() macro\n>    once\")\n\n"
		"Yes please!\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: David Laight <david.laight@example.org>\n"
		"Subject: Re: [PATCH 00/03 5.10.y] Backport minmax.h updates from v6.17-rc6\n"
		"Message-ID: <r2@example.org>\nIn-Reply-To: <c@amazon.com>\n\n"
		"Commit 5e57418a2031 (\"minmax: simplify min()/max()/clamp()\n"
		"implementation\") needs the fix that came after it.\n";
	struct sm_thread t = SM_THREAD_INIT;
	size_t p2;
	unsigned greg = 0, david = 0;

	thread_from_text(&t, mbox, sizeof(mbox) - 1, "cover-names.mbox");
	p2 = find_mail(&t, "p2@amazon.com");
	for (size_t i = 0; i < t.nr_reviews; i++) {
		const struct sm_thread_review *tr = &t.reviews[i];

		if (!strcmp(t.mails[tr->reply].mail.message_id, "r1@kernel.org")) {
			ck_assert_int_eq(tr->names, 0);
			greg++;
		} else {
			ck_assert_int_eq(tr->names, tr->patch == p2 ? 1 : -1);
			david += tr->names > 0;
		}
	}
	ck_assert_uint_eq(greg, 3);
	ck_assert_uint_eq(david, 1);
	sm_thread_release(&t);
}
END_TEST

/* Real hwmon stable threads: the nested NACK thread of [PATCH 4.19 v1 1/2]. */
/* "Please drop." and its kin: a small grammar, so that requests about a
 * line of code or a word are no objections to the patch */
START_TEST(objection_lines)
{
	static const char *const yes[] = {
		"Please drop.", "please drop this patch", "Drop it!", "Please don't apply this.",
		"Please do not backport this to 5.10", "Please drop this from 5.10 and 5.15.",
		"Please don\xe2\x80\x99t queue this one", "  Please drop.  ",
		"This patch should not be backported. It is only relevant for new",
		"The commit shouldn't be backported", "This change should not go to stable.",
		"Please don't pick this change yet.", "please do not pick it up for 6.1",
	};
	static const char *const no[] = {
		"Please drop the blank line.", "We should not drop this check.", "I'll drop it",
		"Please drop the Fixes: tag", "drop this from stable for now until we get this sorted out.",
		"This patch should not be backported without commit 0123456789ab",
		"Please drop this hunk, it is unrelated", "Dropped.", "",
		"Please don't pick the lock up twice.", "Don't pick up the other one yet",
	};

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		ck_assert_msg(sm_is_objection(yes[i], strlen(yes[i])), "not an objection: %s", yes[i]);
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		ck_assert_msg(!sm_is_objection(no[i], strlen(no[i])), "an objection: %s", no[i]);
}
END_TEST

/* Where an objection counts: the reply's own line at its top or under the
 * quoted commit message's trailers (the AUTOSEL answers of the hwmon
 * list), not under quoted prose or a quoted diff line, which it is about */
START_TEST(objection_where_it_stands)
{
	static const struct { const char *body; int objection; } cases[] = {
		{ "On Mon, 30 May 2022, Sasha Levin wrote:\n> [ Upstream commit 1234 ]\n>\n"
		  "> Signed-off-by: Sasha Levin <sashal@kernel.org>\n\nPlease drop.\n\n> ---\n"
		  "> drivers/hwmon/hwmon.c | 2 +-\n\nGuenter\n", 1 },
		{ "Please drop this.\n\nOn Mon, Sasha wrote:\n> x\n", 1 },
		/* any trailer the commit parser knows ends the message */
		{ "> Closes: https://bugzilla.kernel.org/show_bug.cgi?id=217000\n\nPlease drop.\n", 1 },
		{ "> Closes the window before the lock is taken.\n\nPlease drop.\n", 0 },
		{ "> @@ -1,3 +1,4 @@\n> +\tpr_info(\"debug\\n\");\n\nPlease drop.\n", 0 },
		{ "> This also adds a debug message to the probe routine.\n\nPlease drop.\n", 0 },
		{ "> Signed-off-by: A <a@example.org>\n> ---\n> +\tx = 1;\n\nPlease drop.\n", 0 },
	};
	struct sm_reply_text rt;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		sm_reply_extract(cases[i].body, "Guenter Roeck <linux@roeck-us.net>", &rt);
		ck_assert_msg(!!rt.objection == cases[i].objection, "case %zu: %s", i,
			      rt.objection ? rt.objection : "(none)");
		ck_assert(strstr(rt.comment, "Please drop"));	/* said in the comment either way */
		sm_reply_text_release(&rt);
	}
}
END_TEST

/* An objection is a NAK of the patch it answers; answering the cover
 * letter of a review series it names no patch: no NAK for any */
START_TEST(objection_is_a_nak_of_the_patch_answered)
{
	static const char mbox[] =
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\nSubject: [PATCH 6.1 000/002] 6.1.9-rc1 review\n"
		"Message-ID: <c@kernel.org>\n\nThis is the start of the stable review cycle.\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\nSubject: [PATCH 6.1 001/002] hwmon: a: fix x\n"
		"Message-ID: <p1@kernel.org>\nIn-Reply-To: <c@kernel.org>\n\nfix x\n\n"
		"Signed-off-by: A <a@example.org>\n---\ndiff --git a/x b/x\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Greg KH <gregkh@linuxfoundation.org>\nSubject: [PATCH 6.1 002/002] hwmon: b: fix y\n"
		"Message-ID: <p2@kernel.org>\nIn-Reply-To: <c@kernel.org>\n\nfix y\n\n"
		"Signed-off-by: B <b@example.org>\n---\ndiff --git a/y b/y\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Guenter Roeck <linux@roeck-us.net>\nSubject: Re: [PATCH 6.1 001/002] hwmon: a: fix x\n"
		"Message-ID: <r1@roeck-us.net>\nIn-Reply-To: <p1@kernel.org>\n\n"
		"> Signed-off-by: A <a@example.org>\n\nPlease drop.\n"
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: Tess Tester <tess@example.org>\nSubject: Re: [PATCH 6.1 000/002] 6.1.9-rc1 review\n"
		"Message-ID: <r2@example.org>\nIn-Reply-To: <c@kernel.org>\n\nPlease drop.\n";
	struct sm_thread t = SM_THREAD_INIT;
	unsigned naks = 0, via_cover = 0;

	thread_from_text(&t, mbox, sizeof(mbox) - 1, "backport.mbox");
	ck_assert_uint_eq(t.nr_reviews, 3);	/* r1 on p1, r2 on p1 and p2 */
	for (size_t i = 0; i < t.nr_reviews; i++) {
		struct sm_review rv;

		ck_assert_int_eq(sm_review_from_thread(&t, &t.reviews[i], NULL, NULL, &rv), 1);
		ck_assert_str_eq(rv.comment, "Please drop.");
		if (rv.via_cover) {
			via_cover++;
			ck_assert_uint_eq(rv.trailers.nr, 0);
		} else {
			naks++;
			ck_assert_uint_eq(rv.trailers.nr, 1);
			ck_assert_str_eq(rv.trailers.items[0], "Nacked-by: Guenter Roeck <linux@roeck-us.net>");
			ck_assert_str_eq(rv.tree, "6.1");
		}
		sm_review_release(&rv);
	}
	ck_assert_uint_eq(naks, 1);
	ck_assert_uint_eq(via_cover, 2);
	sm_thread_release(&t);
}
END_TEST

START_TEST(thread_real_hwmon_nack)
{
	struct sm_thread t = SM_THREAD_INIT;
	const char *dir = shared_path("corpus/lists/hwmon/stable-threads/cur");
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strlist tr = STRLIST_INIT;
	unsigned broken = 0, reviews_nacked = 0;
	size_t p;

	if (shared_missing(__func__))
		return;
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		char *f;
		struct sm_mail m;

		if (de->d_name[0] == '.')
			continue;
		f = xasprintf("%s/%s", dir, de->d_name);
		if (sm_mail_parse_file(&m, f) == 0)
			sm_thread_add(&t, &m, 1);
		else
			broken++, sm_mail_release(&m);
		free(f);
	}
	closedir(d);
	ck_assert_uint_eq(broken, 0);
	ck_assert_uint_eq(t.nr, 531);
	sm_thread_resolve(&t, NULL);
	p = find_mail(&t, "20220629225843.332453-2-willmcvicker@google.com");
	ck_assert_int_eq(t.mails[p].kind, SM_MAIL_PATCH);
	patch_trailers(&t, p, &tr, NULL);
	/* Guenter's NACK; William quoting it and Guenter's ">>" quote add nothing. */
	ck_assert_uint_eq(tr.nr, 1);
	ck_assert_str_eq(tr.items[0], "Nacked-by: Guenter Roeck <linux@roeck-us.net>");
	strlist_clear(&tr);
	for (size_t i = 0; i < t.nr_reviews; i++) {
		struct sm_reply_text rt;
		const struct sm_mail *m = &t.mails[t.reviews[i].reply].mail;

		sm_reply_extract(m->body, m->from, &rt);
		for (size_t k = 0; k < rt.trailers.nr; k++)
			if (starts_with(rt.trailers.items[k], "Nacked-by:"))
				reviews_nacked++;
		sm_reply_text_release(&rt);
	}
	ck_assert_uint_ge(reviews_nacked, 2);
	sm_thread_release(&t);
}
END_TEST

/* ---- issue 7.3: trailers against b4's expected output ----
 * For every b4 *.mbox with an expected output (*-ref-defaults.txt, else
 * *.verify, else *-ref-unordered.txt), per patch (matched by the subject
 * without its [PATCH ...] tags): the trailers b4 added to the patch (its
 * output's trailers minus the patch mail's own, minus b4's own
 * "Signed-off-by: Test Override" from its test config) must equal the set
 * of trailers stablemate attributes to that patch from the replies
 * (order and formatting aside). Each difference must be listed in
 * tests/b4-known-differences.txt, and each listed one must still occur. */

struct titled {
	char *title;
	struct strlist trailers;
};

struct titled_list {
	struct titled *items;
	size_t nr, alloc;
};

static struct titled *titled_get(struct titled_list *l, const char *title)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i].title, title))
			return &l->items[i];
	ALLOC_GROW(l->items, l->nr, l->alloc);
	memset(&l->items[l->nr], 0, sizeof(l->items[0]));
	l->items[l->nr].title = xstrdup(title);
	return &l->items[l->nr++];
}

static void titled_clear(struct titled_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->items[i].title);
		strlist_clear(&l->items[i].trailers);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* "Key: value" lines of a commit message body, up to "---" or the diff. */
static void body_trailers(const char *body, struct strlist *out)
{
	const char *p = body, *nl;

	for (; p && *p; p = nl ? nl + 1 : NULL) {
		size_t len, k = 0;
		char *line;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if ((len == 3 && !strncmp(p, "---", 3)) || starts_with(p, "diff --git"))
			break;
		while (k < len && (g_ascii_isalnum(p[k]) || p[k] == '-'))
			k++;
		if (!k || k + 1 >= len || p[k] != ':' || p[k + 1] != ' ')
			continue;
		line = xstrndup(p, len);
		g_strchomp(line);
		if (!strlist_contains(out, line))
			strlist_append(out, line);
		free(line);
	}
}

static int ref_one(const char *msg, size_t len, void *data)
{
	struct titled_list *l = data;
	struct sm_mail m;
	struct sm_patch_subject ps;

	ck_assert_int_eq(sm_mail_parse(&m, msg, len, "ref"), 0);
	sm_patch_subject_parse(m.subject, &ps);
	body_trailers(m.body, &titled_get(l, ps.title)->trailers);
	sm_mail_release(&m);
	return 0;
}

/* b4's .verify: blocks "author\ntitle\nbody" separated by "---" lines. */
static void read_verify(const char *text, struct titled_list *l)
{
	char **lines = g_strsplit(text, "\n", -1);
	size_t i = 0;

	while (lines[i] && *lines[i]) {
		struct strbuf body = STRBUF_INIT;
		const char *title;

		if (!lines[i + 1])
			break;
		title = lines[i + 1];
		for (i += 2; lines[i] && strcmp(lines[i], "---"); i++) {
			strbuf_addstr(&body, lines[i]);
			strbuf_addch(&body, '\n');
		}
		body_trailers(body.buf, &titled_get(l, title)->trailers);
		strbuf_release(&body);
		if (lines[i])
			i++;
	}
	g_strfreev(lines);
}

START_TEST(b4_trailer_comparison)
{
	const char *dir = shared_path("corpus/b4");
	struct strlist known = STRLIST_INIT, seen = STRLIST_INIT, unexpected = STRLIST_INIT;
	struct strbuf kb = STRBUF_INIT, report = STRBUF_INIT;
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned compared = 0, patches = 0;
	char **kl;

	if (shared_missing(__func__))
		return;
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(read_file(srcdir_path("tests/b4-known-differences.txt"), &kb), 0);
	kl = g_strsplit(kb.buf, "\n", -1);
	for (char **k = kl; *k; k++) {
		char **f;
		if (!**k || **k == '#')
			continue;
		f = g_strsplit(*k, "\t", 4);
		ck_assert_msg(f[0] && f[1] && f[2] && f[3], "bad line: %s", *k);
		strlist_append_nodup(&known, xasprintf("%s\t%s\t%s", f[0], f[1], f[2]));
		g_strfreev(f);
	}
	g_strfreev(kl);

	while ((de = readdir(d))) {
		char *base, *mbox, *ref;
		struct sm_thread t = SM_THREAD_INIT;
		struct titled_list exp = { 0 }, orig = { 0 };
		struct strbuf rb = STRBUF_INIT;
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".mbox"))
			continue;
		base = xstrndup(de->d_name, n - 5);
		mbox = xasprintf("%s/%s", dir, de->d_name);
		ck_assert_uint_eq(load_mbox(&t, mbox), 0);
		sm_thread_resolve(&t, NULL);
		ref = xasprintf("%s/%s-ref-defaults.txt", dir, base);
		if (!file_exists(ref)) {
			free(ref);
			ref = xasprintf("%s/%s.verify", dir, base);
		}
		if (!file_exists(ref)) {
			free(ref);
			ref = xasprintf("%s/%s-ref-unordered.txt", dir, base);
		}
		if (!file_exists(ref)) {
			/* naked-cover-*: no expected trailer output; parsed and threaded only. */
			ck_assert_uint_gt(t.nr, 0);
			goto next;
		}
		compared++;
		ck_assert_int_eq(read_file(ref, &rb), 0);
		if (strstr(ref, ".verify"))
			read_verify(rb.buf, &exp);
		else
			sm_mbox_split(rb.buf, rb.len, ref_one, &exp);
		for (size_t i = 0; i < t.nr; i++)
			if (t.mails[i].kind == SM_MAIL_PATCH)
				body_trailers(t.mails[i].mail.body,
					      &titled_get(&orig, t.mails[i].ps.title)->trailers);
		for (size_t e = 0; e < exp.nr; e++) {
			struct titled *te = &exp.items[e], *to = titled_get(&orig, te->title);
			struct strlist ours = STRLIST_INIT, want = STRLIST_INIT;

			patches++;
			for (size_t k = 0; k < te->trailers.nr; k++)
				if (!strlist_contains(&to->trailers, te->trailers.items[k]) &&
				    strcmp(te->trailers.items[k],
					   "Signed-off-by: Test Override <test-override@example.com>"))
					strlist_append(&want, te->trailers.items[k]);
			for (size_t i = 0; i < t.nr; i++)
				if (t.mails[i].kind == SM_MAIL_PATCH &&
				    !strcmp(t.mails[i].ps.title, te->title))
					patch_trailers(&t, i, &ours, NULL);
			for (int pass = 0; pass < 2; pass++) {
				struct strlist *a = pass ? &want : &ours, *b = pass ? &ours : &want;

				for (size_t k = 0; k < a->nr; k++) {
					char *key;
					if (strlist_contains(b, a->items[k]))
						continue;
					key = xasprintf("%s\t%s\t%c%s", base, te->title,
							pass ? '-' : '+', a->items[k]);
					if (strlist_contains(&known, key))
						strlist_append(&seen, key);
					else
						strlist_append(&unexpected, key);
					free(key);
				}
			}
			strlist_clear(&ours);
			strlist_clear(&want);
		}
next:
		strbuf_release(&rb);
		titled_clear(&exp);
		titled_clear(&orig);
		sm_thread_release(&t);
		free(ref);
		free(mbox);
		free(base);
	}
	closedir(d);
	for (size_t i = 0; i < unexpected.nr; i++)
		strbuf_addf(&report, "\n  not in b4-known-differences.txt: %s", unexpected.items[i]);
	for (size_t i = 0; i < known.nr; i++)
		if (!strlist_contains(&seen, known.items[i]))
			strbuf_addf(&report, "\n  listed but no longer differs: %s", known.items[i]);
	fprintf(stderr, "b4 comparison: %u threads, %u patches compared, %zu known differences\n",
		compared, patches, known.nr);
	ck_assert_msg(report.len == 0, "b4 comparison:%s", report.buf);
	ck_assert_uint_ge(compared, 11);
	strbuf_release(&report);
	strbuf_release(&kb);
	strlist_clear(&known);
	strlist_clear(&seen);
	strlist_clear(&unexpected);
}
END_TEST

/* ---- issue 7.4: patchwork series threading, every corpus mail parsed ---- */

static size_t cover_of(const struct sm_thread *t, const char *msgid)
{
	return t->mails[find_mail(t, msgid)].cover;
}

START_TEST(patchwork_series)
{
	const char *dir = shared_path("corpus/patchwork/series");
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned files = 0, patches = 0, with_cover = 0;
	struct sm_thread t = SM_THREAD_INIT;
	char *f;

	if (shared_missing(__func__))
		return;
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".mbox"))
			continue;
		f = xasprintf("%s/%s", dir, de->d_name);
		ck_assert_uint_eq(load_mbox(&t, f), 0);
		sm_thread_resolve(&t, NULL);
		for (size_t i = 0; i < t.nr; i++) {
			const struct sm_thread_mail *m = &t.mails[i];

			if (m->kind != SM_MAIL_PATCH)
				continue;
			patches++;
			if (m->cover == (size_t)-1)
				continue;
			with_cover++;
			/* A patch only ever joins a cover of its own version and size. */
			ck_assert_msg(t.mails[m->cover].ps.version == m->ps.version,
				      "%s: %s", de->d_name, m->mail.subject);
			ck_assert_msg(!m->ps.total || t.mails[m->cover].ps.total == m->ps.total,
				      "%s: %s", de->d_name, m->mail.subject);
		}
		sm_thread_release(&t);
		free(f);
		files++;
	}
	closedir(d);
	ck_assert_uint_eq(files, 28);
	ck_assert_uint_gt(with_cover, 0);
	ck_assert_uint_gt(patches, with_cover);

	static const char *const cover_cases[] = {
		"base-cover-letter.mbox", "base-out-of-order.mbox", "base-deep-threaded.mbox",
	};
	for (size_t c = 0; c < ARRAY_SIZE(cover_cases); c++) {
		char *p = xasprintf("%s/%s", dir, cover_cases[c]);
		size_t cover;

		load_mbox(&t, p);
		sm_thread_resolve(&t, NULL);
		cover = find_mail(&t, "1473632524-8585-1-git-send-email-stephenfinucane@gmail.com");
		ck_assert_int_eq(t.mails[cover].kind, SM_MAIL_COVER);
		ck_assert_uint_eq(cover_of(&t, "1473632524-8585-2-git-send-email-stephenfinucane@gmail.com"), cover);
		ck_assert_uint_eq(cover_of(&t, "1473632524-8585-3-git-send-email-stephenfinucane@gmail.com"), cover);
		sm_thread_release(&t);
		free(p);
	}

	/* v2 threaded to the v1 cover: each version keeps its own cover. */
	f = xasprintf("%s/revision-threaded-to-cover.mbox", dir);
	load_mbox(&t, f);
	sm_thread_resolve(&t, NULL);
	ck_assert_uint_eq(cover_of(&t, "1473632524-8585-2-git-send-email-stephenfinucane@gmail.com"),
			  find_mail(&t, "1473632524-8585-1-git-send-email-stephenfinucane@gmail.com"));
	ck_assert_uint_eq(cover_of(&t, "1473633055-10316-2-git-send-email-stephenfinucane@gmail.com"),
			  find_mail(&t, "1473633055-10316-1-git-send-email-stephenfinucane@gmail.com"));
	sm_thread_release(&t);
	free(f);

	/* No cover, no References: patches, each on its own. */
	f = xasprintf("%s/base-no-references.mbox", dir);
	load_mbox(&t, f);
	sm_thread_resolve(&t, NULL);
	ck_assert_int_eq(t.mails[find_mail(&t, "1495516865-17019-1-git-send-email-xiaolou4617@gmail.com")].kind,
			 SM_MAIL_PATCH);
	ck_assert_uint_eq(cover_of(&t, "1495516865-17019-1-git-send-email-xiaolou4617@gmail.com"),
			  (size_t)-1);
	sm_thread_release(&t);
	free(f);
}
END_TEST

/* Every real mail of patchwork/ and cve-announce/: parsed or named, never a crash. */
START_TEST(corpus_every_mail)
{
	static const char *const dirs[] = {
		"corpus/patchwork/mail", "corpus/patchwork/fuzz", "corpus/patchwork/patches",
	};
	struct sm_thread t = SM_THREAD_INIT;
	struct strlist files = STRLIST_INIT;
	unsigned broken = 0;

	if (shared_missing(__func__))
		return;
	list_shared(dirs, ARRAY_SIZE(dirs), &files);
	for (size_t i = 0; i < files.nr; i++)
		broken += load_mbox(&t, files.items[i]);
	ck_assert_uint_ge(files.nr, 26);
	strlist_clear(&files);
	sm_thread_resolve(&t, NULL);
	sm_thread_release(&t);

	broken += load_mbox(&t, shared_path("corpus/cve-announce/cve-announce-2024-300.mbox.gz"));
	ck_assert_uint_eq(t.nr, 300);
	ck_assert_uint_eq(broken, 0);
	for (size_t i = 0; i < t.nr; i++)
		ck_assert_ptr_nonnull(strstr(t.mails[i].mail.subject, "CVE-2024-"));
	sm_thread_resolve(&t, NULL);
	sm_thread_release(&t);
}
END_TEST

/* A list's patch mails as the series they were sent as: two series
 * interleaved and out of order, a v2 in the same thread, a series sent
 * again, a reply and a cover letter left out, a lone patch. */
struct rounds_seen {
	struct strbuf s;
};

static int note_round(const size_t *ats, size_t n, void *ctx)
{
	struct rounds_seen *r = ctx;

	strbuf_addch(&r->s, '[');
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&r->s, "%s%zu", i ? " " : "", ats[i]);
	strbuf_addch(&r->s, ']');
	return 0;
}

static void add_part(struct sm_thread_parts *p, const char *subject, const char *id,
		     const char *in_reply_to, size_t at, int want)
{
	struct sm_mail m;
	char *text = xasprintf("Message-ID: <%s>\n%s%s%sSubject: %s\n\nbody\n", id,
			       in_reply_to ? "In-Reply-To: <" : "", in_reply_to ? in_reply_to : "",
			       in_reply_to ? ">\n" : "", subject);

	ck_assert_int_eq(sm_mail_parse(&m, text, strlen(text), "part"), 0);
	ck_assert_int_eq(sm_thread_parts_add(p, &m, at), want);
	sm_mail_release(&m);
	free(text);
}

START_TEST(thread_series_rounds)
{
	struct sm_thread_parts p = SM_THREAD_PARTS_INIT;
	struct rounds_seen r = { STRBUF_INIT };

	add_part(&p, "[PATCH 0/3] x: cover", "a0@x", NULL, 0, 0);
	add_part(&p, "[PATCH 2/3] x: two", "a2@x", "a0@x", 1, 1);
	add_part(&p, "[PATCH 1/2] y: one", "b1@y", NULL, 2, 1);
	add_part(&p, "[PATCH 1/3] x: one", "a1@x", "a0@x", 3, 1);
	add_part(&p, "Re: [PATCH 1/3] x: one", "r1@x", "a1@x", 4, 0);
	add_part(&p, "[PATCH 2/2] y: two", "b2@y", "b1@y", 5, 1);
	add_part(&p, "[PATCH 3/3] x: three", "a3@x", "a0@x", 6, 1);
	add_part(&p, "[PATCH v2 1/3] x: one", "c1@x", "a0@x", 7, 1);
	add_part(&p, "[PATCH 1/2] y: one", "b1@y", NULL, 8, 1);	/* sent again */
	add_part(&p, "[PATCH] z: alone", "d@z", NULL, 9, 0);
	add_part(&p, "[PATCH 2/2] y: two", "b2@y", "b1@y", 10, 1);
	add_part(&p, "[PATCH 2/4294967295] w: huge", "e@w", NULL, 11, 0);
	ck_assert_int_eq(sm_thread_parts_each_round(&p, note_round, &r), 0);
	/* rounds by their first mail; each in patch order */
	ck_assert_str_eq(r.s.buf, "[3 1 6][2 5][7][8 10]");
	strbuf_release(&r.s);
	sm_thread_parts_release(&p);
}
END_TEST

/* The list of reviewed patches waiting for their upstream commit: read
 * back as written, one entry per Message-ID, bad lines dropped, entries
 * given up after SM_PENDING_DAYS. */
START_TEST(pending_list)
{
	struct sm_pending p = SM_PENDING_INIT, q;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	const long long day = 86400, now = 1773100000;

	ck_assert_int_eq(sm_pending_add(&p, "20260310.pre-limit@example.org",
					"hwmon: (nct6775) Fix\tthe fan\nlimit", now - 10 * day), 1);
	ck_assert_int_eq(sm_pending_add(&p, "20260310.pre-limit@example.org", "again", now), 0);
	ck_assert_int_eq(sm_pending_add(&p, "old@example.org", "x: y", now - SM_PENDING_DAYS * day), 1);
	ck_assert_int_eq(sm_pending_add(&p, "no id", "x: y", now), 0);
	memcpy(p.tip, "0123456789012345678901234567890123456789", 41);
	sm_pending_format(&p, &a);
	ck_assert_str_eq(a.buf, "tip 0123456789012345678901234567890123456789\n"
				"1772236000\t20260310.pre-limit@example.org\thwmon: (nct6775) Fix the fan limit\n"
				"1757548000\told@example.org\tx: y\n");
	/* read back, with lines that do not read among them */
	strbuf_addstr(&a, "junk\n12x\ta@b\tz\n5\t\tno id\n7\tdup@x\tfirst\n8\tdup@x\tsecond\n-1\tneg@x\tz\n");
	sm_pending_parse(&q, a.buf);
	ck_assert_str_eq(q.tip, p.tip);
	ck_assert_uint_eq(q.nr, 3);
	ck_assert_str_eq(q.items[2].msgid, "dup@x");
	ck_assert_str_eq(q.items[2].title, "first");
	ck_assert_uint_eq(sm_pending_expire(&q, now), 2);	/* the old one, and dup@x of 1970 */
	ck_assert_uint_eq(q.nr, 1);
	ck_assert_str_eq(q.items[0].msgid, "20260310.pre-limit@example.org");
	{
		unsigned char marked[1] = { 1 };

		ck_assert_uint_eq(sm_pending_remove_marked(&q, marked), 1);
	}
	sm_pending_format(&q, &b);
	ck_assert_str_eq(b.buf, "tip 0123456789012345678901234567890123456789\n");
	sm_pending_release(&q);
	sm_pending_release(&p);
	sm_pending_parse(&q, NULL);
	ck_assert_uint_eq(q.nr, 0);
	ck_assert_str_eq(q.tip, "");
	/* a backlog past SM_PENDING_MAX: the oldest go */
	for (unsigned i = 0; i < SM_PENDING_MAX + 3; i++) {
		char id[32];

		snprintf(id, sizeof(id), "%u@x", i);
		ck_assert_int_eq(sm_pending_add(&q, id, "t: u", now - 1000 + i / 1000), 1);
	}
	ck_assert_uint_eq(sm_pending_expire(&q, now), 3);
	ck_assert_uint_eq(q.nr, SM_PENDING_MAX);
	ck_assert_str_eq(q.items[0].msgid, "3@x");
	ck_assert_str_eq(q.items[SM_PENDING_MAX - 1].msgid, "20002@x");
	sm_pending_release(&q);
	strbuf_release(&a);
	strbuf_release(&b);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("mail");
	TCase *tc = add_tcase(s, "mail", SM_TESTS(reply_trailers_not_quoted,
						  reply_wrapped_attribution_and_top_posting,
						  reply_robot_report_gist,
						  reply_nak_and_inline_patch,
						  reply_trailer_identity, msgid_checks,
						  msgid_from_commit_trailers,
						  parse_latin1_qp_rfc2047, parse_base64,
						  parse_broken, parse_subject_undecodable,
						  parse_patchwork_charsets,
						  thread_cover_reply_and_bot, objection_lines,
						  objection_where_it_stands,
						  objection_is_a_nak_of_the_patch_answered,
						  cover_reply_names_its_patch, reply_with_a_pasted_fix,
						  backport_cover_reply_names_in_own_words,
						  thread_real_hwmon_nack, b4_trailer_comparison,
						  patchwork_series, thread_series_rounds,
						  pending_list, corpus_every_mail));

	tcase_set_timeout(tc, 120);
	return s;
}
