/* SPDX-License-Identifier: MIT */
#include "remote/windows_layout.h"
#include "common/util.h"

/*
 * Windows' layouts as xkb has them; where Windows' layout and xkb's
 * default differ, the variant closest to Windows' is named. Looked up
 * linearly, once per client.
 */
static const struct windows_layout layouts[] = {
	{ 0x00000401, "ara", "" },          /* Arabic (101) */
	{ 0x00000402, "bg", "" },           /* Bulgarian (Typewriter) */
	{ 0x00010402, "bg", "phonetic" },   /* Bulgarian (Latin/phonetic) */
	{ 0x00000404, "tw", "" },           /* Chinese (Traditional) - US */
	{ 0x00000405, "cz", "" },           /* Czech */
	{ 0x00010405, "cz", "qwerty" },     /* Czech (QWERTY) */
	{ 0x00000406, "dk", "" },           /* Danish */
	{ 0x00000407, "de", "" },           /* German */
	{ 0x00010407, "de", "" },           /* German (IBM) */
	{ 0x00000408, "gr", "" },           /* Greek */
	{ 0x00000409, "us", "" },           /* US */
	{ 0x00010409, "us", "dvorak" },     /* United States-Dvorak */
	{ 0x00020409, "us", "intl" },       /* United States-International */
	{ 0x00030409, "us", "dvorak-l" },   /* Dvorak for left hand */
	{ 0x00040409, "us", "dvorak-r" },   /* Dvorak for right hand */
	{ 0x0000040A, "es", "" },           /* Spanish (Traditional Sort) */
	{ 0x0001040A, "es", "" },           /* Spanish Variation */
	{ 0x0000040B, "fi", "" },           /* Finnish */
	{ 0x0000040C, "fr", "" },           /* French */
	{ 0x0000040D, "il", "" },           /* Hebrew */
	{ 0x0000040E, "hu", "" },           /* Hungarian */
	{ 0x0001040E, "hu", "101_qwerty_comma_nodead" }, /* Hungarian 101-key */
	{ 0x0000040F, "is", "" },           /* Icelandic */
	{ 0x00000410, "it", "" },           /* Italian */
	{ 0x00010410, "it", "" },           /* Italian (142) */
	{ 0x00000411, "jp", "" },           /* Japanese */
	{ 0x00000412, "kr", "" },           /* Korean */
	{ 0x00000413, "nl", "" },           /* Dutch */
	{ 0x00000414, "no", "" },           /* Norwegian */
	{ 0x00000415, "pl", "" },           /* Polish (Programmers) */
	{ 0x00010415, "pl", "qwertz" },     /* Polish (214) */
	{ 0x00000416, "br", "" },           /* Portuguese (Brazil ABNT) */
	{ 0x00010416, "br", "" },           /* Portuguese (Brazil ABNT2) */
	{ 0x00000418, "ro", "winkeys" },    /* Romanian (Legacy) */
	{ 0x00010418, "ro", "std" },        /* Romanian (Standard) */
	{ 0x00020418, "ro", "" },           /* Romanian (Programmers) */
	{ 0x00000419, "ru", "" },           /* Russian */
	{ 0x00010419, "ru", "typewriter" }, /* Russian (Typewriter) */
	{ 0x00020419, "ru", "phonetic" },   /* Russian - Mnemonic */
	{ 0x0000041A, "hr", "" },           /* Croatian */
	{ 0x0000041B, "sk", "" },           /* Slovak */
	{ 0x0001041B, "sk", "qwerty" },     /* Slovak (QWERTY) */
	{ 0x0000041C, "al", "" },           /* Albanian */
	{ 0x0000041D, "se", "" },           /* Swedish */
	{ 0x0000041E, "th", "" },           /* Thai Kedmanee */
	{ 0x0001041E, "th", "pat" },        /* Thai Pattachote */
	{ 0x0000041F, "tr", "" },           /* Turkish Q */
	{ 0x0001041F, "tr", "f" },          /* Turkish F */
	{ 0x00000420, "pk", "" },           /* Urdu */
	{ 0x00000422, "ua", "winkeys" },    /* Ukrainian */
	{ 0x00020422, "ua", "" },           /* Ukrainian (Enhanced) */
	{ 0x00000423, "by", "" },           /* Belarusian */
	{ 0x00000424, "si", "" },           /* Slovenian */
	{ 0x00000425, "ee", "" },           /* Estonian */
	{ 0x00000426, "lv", "" },           /* Latvian */
	{ 0x00010426, "lv", "apostrophe" }, /* Latvian (QWERTY) */
	{ 0x00000427, "lt", "ibm" },        /* Lithuanian IBM */
	{ 0x00010427, "lt", "" },           /* Lithuanian */
	{ 0x00020427, "lt", "std" },        /* Lithuanian Standard */
	{ 0x00000429, "ir", "" },           /* Persian */
	{ 0x0000042A, "vn", "" },           /* Vietnamese */
	{ 0x0000042B, "am", "" },           /* Armenian Eastern */
	{ 0x0000042C, "az", "" },           /* Azerbaijani Latin */
	{ 0x0000042F, "mk", "" },           /* Macedonian */
	{ 0x00000437, "ge", "" },           /* Georgian */
	{ 0x00000439, "in", "" },           /* Hindi Traditional (InScript) */
	{ 0x0000043F, "kz", "" },           /* Kazakh */
	{ 0x00000440, "kg", "" },           /* Kyrgyz Cyrillic */
	{ 0x00000443, "uz", "latin" },      /* Uzbek Latin */
	{ 0x00000450, "mn", "" },           /* Mongolian Cyrillic */
	{ 0x00000452, "gb", "extd" },       /* United Kingdom Extended */
	{ 0x00000804, "cn", "" },           /* Chinese (Simplified) - US */
	{ 0x00000807, "ch", "" },           /* Swiss German */
	{ 0x00000809, "gb", "" },           /* United Kingdom */
	{ 0x0000080A, "latam", "" },        /* Latin American */
	{ 0x0000080C, "be", "" },           /* Belgian French */
	{ 0x00000813, "be", "" },           /* Belgian (Period) */
	{ 0x0001080C, "be", "" },           /* Belgian (Comma) */
	{ 0x00000816, "pt", "" },           /* Portuguese */
	{ 0x0000081A, "rs", "latin" },      /* Serbian (Latin) */
	{ 0x00000843, "uz", "" },           /* Uzbek Cyrillic */
	{ 0x00000C04, "us", "" },           /* Chinese (Hong Kong) - US */
	{ 0x00000C07, "at", "" },           /* German (Austria) */
	{ 0x00000C09, "us", "" },           /* English (Australia) - US */
	{ 0x00000C0A, "es", "" },           /* Spanish (Modern Sort) */
	{ 0x00000C0C, "ca", "fr-legacy" },  /* Canadian French (Legacy) */
	{ 0x00000C1A, "rs", "" },           /* Serbian (Cyrillic) */
	{ 0x00001004, "us", "" },           /* Chinese (Singapore) - US */
	{ 0x00001007, "de", "" },           /* German (Luxembourg) */
	{ 0x00001009, "ca", "" },           /* Canadian French */
	{ 0x00011009, "ca", "multix" },     /* Canadian Multilingual Standard */
	{ 0x0000100C, "ch", "fr" },         /* Swiss French */
	{ 0x0000101A, "hr", "" },           /* Croatian (Bosnia) */
	{ 0x00001409, "us", "" },           /* English (New Zealand) - US */
	{ 0x0000140C, "ch", "fr" },         /* French (Luxembourg) */
	{ 0x00001809, "ie", "" },           /* Irish */
	{ 0x0000201A, "ba", "" },           /* Bosnian (Cyrillic) */
	{ 0x00004009, "in", "eng" },        /* English (India) */
};

const struct windows_layout *windows_layout_table(size_t *n) {
	*n = ARRAY_LEN(layouts);
	return layouts;
}

static const struct windows_layout *exact(uint32_t klid) {
	for (size_t i = 0; i < ARRAY_LEN(layouts); i++) {
		if (layouts[i].klid == klid) {
			return &layouts[i];
		}
	}
	return NULL;
}

const struct windows_layout *windows_layout_find(uint32_t klid, uint32_t keyboard_type) {
	const struct windows_layout *found = exact(klid);
	if (!found && klid > 0xFFFF) {
		found = exact(klid & 0xFFFF);
	}
	if (!found && keyboard_type == WINDOWS_KEYBOARD_TYPE_JAPANESE) {
		found = exact(0x00000411);
	}
	if (!found && keyboard_type == WINDOWS_KEYBOARD_TYPE_KOREAN) {
		found = exact(0x00000412);
	}
	return found;
}
