/* device_ids: device-ID table entries among a diff's added lines (see
 * device_ids.h). */
#include "rules/device_ids.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>

struct marker {
	const char *s;
	size_t n;
};
#define MARKER(s) { s, sizeof(s) - 1 }

static int is_word_byte(int c)
{
	return isalnum(c) || c == '_';
}

/* A line that names a device in an ID table or match list: a call of one
 * of the ID macros (IWL_PCI_DEVICE( counts as PCI_DEVICE( does), a name of
 * those families anywhere (INPUT_DEVICE_ID_MATCH_EVBIT), .compatible, or
 * { "ABCD0001", 0 }, as ACPI and i2c/platform tables have. One pass over
 * the line's words: every added line of every diff comes here. */
static int has_id_marker(const char *s, size_t len)
{
	static const struct marker calls[] = {
		MARKER("PCI_DEVICE"), MARKER("PCI_VDEVICE"), MARKER("PCI_DEVICE_SUB"),
		MARKER("PCI_DEVICE_DATA"), MARKER("USB_DEVICE"),
		MARKER("USB_DEVICE_AND_INTERFACE_INFO"), MARKER("USB_VENDOR_AND_INTERFACE_INFO"),
		MARKER("USB_DEVICE_VENDOR_SPEC"), MARKER("HID_DEVICE"),
		MARKER("HID_BLUETOOTH_DEVICE"), MARKER("HID_I2C_DEVICE"), MARKER("SDIO_DEVICE"),
		MARKER("ACPI_DEVICE_CLASS"), MARKER("MODULE_DEVICE_TABLE"), MARKER("DMI_MATCH"),
		MARKER("DMI_EXACT_MATCH"), MARKER("SND_PCI_QUIRK"), MARKER("SND_PCI_QUIRK_VENDOR"),
		MARKER("SND_HDA_PIN_QUIRK"), MARKER("HDA_CODEC_ENTRY"), MARKER("HDA_CODEC_QUIRK"),
		MARKER("DEVICE_FLG"), MARKER("VENDOR_FLG"), MARKER("QMI_FIXED_INTF"),
		MARKER("QMI_QUIRK_SET_DTR"), MARKER("QMI_MATCH_FF_FF_FF"), MARKER("UNUSUAL_DEV"),
	};
	static const struct marker families[] = {
		MARKER("USB_DEVICE_INTERFACE_"), MARKER("INPUT_DEVICE_ID_"), MARKER("X86_MATCH_"),
		MARKER("PHY_ID_MATCH_"), MARKER("DECLARE_PCI_FIXUP_"),
	};
	const char *end = s + len, *p = s;

	while (p < end) {
		const char *word;
		size_t n;

		if (!is_word_byte((unsigned char)*p)) {
			p++;
			continue;
		}
		for (word = p; p < end && is_word_byte((unsigned char)*p); p++)
			;
		n = (size_t)(p - word);
		if (n == 10 && word > s && word[-1] == '.' && !memcmp(word, "compatible", 10))
			return 1;
		if (n < 9 || !isupper((unsigned char)*word))
			continue;	/* the shortest marker is DMI_MATCH */
		for (size_t i = 0; i < ARRAY_SIZE(families); i++)
			if (n >= families[i].n && !memcmp(word, families[i].s, families[i].n))
				return 1;
		if (p == end || *p != '(')
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(calls); i++)
			if (n >= calls[i].n && !memcmp(p - calls[i].n, calls[i].s, calls[i].n))
				return 1;
	}
	for (p = s; p < end && isspace((unsigned char)*p); p++)
		;
	return p < end && *p == '{' && memchr(p, '"', (size_t)(end - p)) &&
	       memmem(p, (size_t)(end - p), "},", 2);
}

/* "#define PCI_DEVICE_ID_AMD_19H_M78H_DF_F3 0x12fb", a comment after it
 * allowed: an ID's name for a table entry. */
static int is_id_define(const char *s, size_t len)
{
	static const char *const says_id[] = { "_ID", "ID_", "_PID", "_VID", "DEVICE", "VENDOR",
					       "PRODUCT" };
	const char *p = s, *end = s + len, *name;
	char buf[128];
	size_t n;
	int id = 0;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end || *p++ != '#')
		return 0;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (end - p < 7 || memcmp(p, "define", 6) || !isspace((unsigned char)p[6]))
		return 0;
	p += 7;
	while (p < end && isspace((unsigned char)*p))
		p++;
	for (name = p; p < end && (isalnum((unsigned char)*p) || *p == '_'); p++)
		;
	n = (size_t)(p - name);
	if (!n || n >= sizeof(buf) || p == end || !isspace((unsigned char)*p))
		return 0;
	memcpy(buf, name, n);
	buf[n] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(says_id) && !id; i++)
		id = strstr(buf, says_id[i]) != NULL;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (!id || end - p < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X') ||
	    !isxdigit((unsigned char)p[2]))
		return 0;
	for (p += 2; p < end && isxdigit((unsigned char)*p); p++)
		;
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p == end || (end - p >= 2 && p[0] == '/' && (p[1] == '*' || p[1] == '/'));
}

/* The braces and parentheses the line opens (negative: closes)
 * and whether it has a ';', all outside strings, character constants and
 * comments. Parentheses count as braces do: usb-storage's UNUSUAL_DEV(
 * entry takes five lines. */
static int bracket_balance(const char *s, size_t len, int *semicolon)
{
	int depth = 0;

	*semicolon = 0;
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (ch == '"' || ch == '\'') {
			while (++i < len && s[i] != ch)
				if (s[i] == '\\')
					i++;
		} else if (ch == '/' && i + 1 < len && (s[i + 1] == '/' || s[i + 1] == '*')) {
			break;	/* a comment to the line's end, in effect */
		} else if (ch == '{' || ch == '(') {
			depth++;
		} else if (ch == '}' || ch == ')') {
			depth--;
		} else if (ch == ';') {
			*semicolon = 1;
		}
	}
	return depth;
}

static void close_group(struct sm_id_run *run, struct sm_diffstat *d)
{
	int directive = run->directive, hopeless = run->hopeless;

	if (run->marker && !run->statement) {
		d->id_table_lines += run->lines;
		d->id_entries++;
	} else {
		hopeless = 1;	/* lines of code that are no entry */
	}
	memset(run, 0, sizeof(*run));
	run->directive = directive;
	run->hopeless = hopeless || d->id_entries > 6;
}

void sm_id_run_line(struct sm_id_run *run, struct sm_diffstat *d, const char *s, size_t len)
{
	int semicolon, marker, directive;
	const char *p = s;

	if (run->hopeless)
		return;
	if (!run->lines && is_id_define(s, len)) {
		d->id_table_lines++;
		return;
	}
	marker = has_id_marker(s, len);
	run->lines++;
	run->marker |= marker;
	run->depth += bracket_balance(s, len, &semicolon);
	while (p < s + len && isspace((unsigned char)*p))
		p++;
	/* A directive, and the lines it continues with a backslash, is code:
	 * "#define X86_MATCH_..._STEPPINGS(...)" makes a marker, it adds no
	 * entry. */
	directive = run->directive || *p == '#';
	run->directive = directive && len && s[len - 1] == '\\';
	/* "};" ends a table; any other ';' a statement of code, unless the
	 * line is an ID line itself (MODULE_DEVICE_TABLE(pci, ids);) */
	if ((semicolon && !marker && *p != '}') || directive)
		run->statement = 1;
	if (run->depth <= 0)
		close_group(run, d);
}

void sm_id_run_end(struct sm_id_run *run, struct sm_diffstat *d)
{
	if (run->lines)
		close_group(run, d);
	run->directive = 0;
}

void sm_id_run_init(struct sm_id_run *run)
{
	memset(run, 0, sizeof(*run));
}

int sm_diff_adds_device_ids_only(const struct sm_diffstat *d)
{
	return d->id_entries && d->id_entries <= 6 && d->id_table_lines == d->code_lines_changed;
}
