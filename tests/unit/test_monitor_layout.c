/* SPDX-License-Identifier: MIT */
/* Unit tests for remote clients' monitor layouts (remote/monitor_layout.c). */

#include <string.h>
#include "remote/desktop_size.h"
#include "remote/monitor_layout.h"
#include "tests/unit/expect.h"

static bool make(struct remote_monitor_layout *layout, const struct remote_monitor *m,
		int n, char *why) {
	return remote_monitor_layout_make(layout, m, n, why, 128);
}

static void test_two_side_by_side(void) {
	/* As xfreerdp /multimon sends them: the primary at 0,0. */
	struct remote_monitor m[] = {
		{ 0, 0, 800, 600, true },
		{ 800, 0, 640, 480, false },
	};
	struct remote_monitor_layout l;
	char why[128] = "";
	EXPECT(make(&l, m, 2, why), "two monitors side by side: %s", why);
	EXPECT(l.count == 2, "count %d", l.count);
	EXPECT(l.monitors[0].primary && l.monitors[0].x == 0 && l.monitors[0].width == 800,
		"the primary first");
	EXPECT(l.monitors[1].x == 800 && l.monitors[1].y == 0 && l.monitors[1].height == 480,
		"the second at 800,0: %d,%d", l.monitors[1].x, l.monitors[1].y);
	EXPECT(l.x == 0 && l.y == 0 && l.width == 1440 && l.height == 600,
		"the desktop %d,%d %dx%d", l.x, l.y, l.width, l.height);
}

static void test_primary_second_and_left(void) {
	/* The primary is the second one, and the other lies left of it. */
	struct remote_monitor m[] = {
		{ -1024, 100, 1024, 768, false },
		{ 0, 0, 1280, 1024, true },
		{ 1280, 0, 800, 600, false },
	};
	struct remote_monitor_layout l;
	char why[128] = "";
	EXPECT(make(&l, m, 3, why), "three monitors: %s", why);
	EXPECT(l.monitors[0].width == 1280 && l.monitors[0].primary, "the primary first");
	EXPECT(l.monitors[1].x == -1024 && l.monitors[1].y == 100, "then the client's order");
	EXPECT(l.monitors[2].x == 1280, "the third at 1280");
	EXPECT(l.x == -1024 && l.y == 0 && l.width == 3104 && l.height == 1024,
		"the desktop %d,%d %dx%d", l.x, l.y, l.width, l.height);
}

static void test_primary_not_at_origin(void) {
	/* Display Control layouts from other clients: moved so the primary is at 0,0. */
	struct remote_monitor m[] = {
		{ 100, 50, 640, 480, false },
		{ 740, 50, 800, 600, true },
	};
	struct remote_monitor_layout l;
	char why[128] = "";
	EXPECT(make(&l, m, 2, why), "%s", why);
	EXPECT(l.monitors[0].x == 0 && l.monitors[0].y == 0 && l.monitors[0].width == 800,
		"the primary at 0,0");
	EXPECT(l.monitors[1].x == -640 && l.monitors[1].y == 0, "the other left of it: %d,%d",
		l.monitors[1].x, l.monitors[1].y);
	/* No primary flag: the first is the primary. */
	m[1].primary = false;
	EXPECT(make(&l, m, 2, why), "%s", why);
	EXPECT(l.monitors[0].width == 640 && l.monitors[1].x == 640, "the first is the primary");
}

static void test_refused(void) {
	struct remote_monitor m[REMOTE_MONITORS_MAX + 1];
	for (int i = 0; i <= REMOTE_MONITORS_MAX; i++) {
		m[i] = (struct remote_monitor){ i * 200, 0, 200, 200, i == 0 };
	}
	struct remote_monitor_layout l;
	char why[128] = "";
	EXPECT(make(&l, m, REMOTE_MONITORS_MAX, why), "16 monitors: %s", why);
	EXPECT(!make(&l, m, REMOTE_MONITORS_MAX + 1, why) && strstr(why, "17 monitors"),
		"17 monitors: %s", why);
	EXPECT(!make(&l, m, 0, why), "no monitors");

	struct remote_monitor big[] = {
		{ 0, 0, 800, 600, true },
		{ 800, 0, REMOTE_DESKTOP_MAX_SIZE + 1, 600, false },
	};
	EXPECT(!make(&l, big, 2, why) && strstr(why, "monitor 2"), "too wide: %s", why);
	big[1].width = 0;
	EXPECT(!make(&l, big, 2, why), "empty: %s", why);

	struct remote_monitor overlapping[] = {
		{ 0, 0, 800, 600, true },
		{ 799, 0, 640, 480, false },
	};
	EXPECT(!make(&l, overlapping, 2, why) && strstr(why, "overlap"), "overlap: %s", why);
	overlapping[1].x = 800;
	EXPECT(make(&l, overlapping, 2, why), "touching is fine: %s", why);

	/* Each allowed, but together more than one largest desktop. */
	struct remote_monitor wide[] = {
		{ 0, 0, 8192, 8192, true },
		{ 8192, 0, 8192, 8192, false },
	};
	EXPECT(!make(&l, wide, 2, why) && strstr(why, "span"), "too much area: %s", why);
	struct remote_monitor far[] = {
		{ 0, 0, 800, 600, true },
		{ 2000000000, 0, 800, 600, false },
	};
	EXPECT(!make(&l, far, 2, why), "far out: %s", why);
}

static void test_plan(void) {
	struct remote_monitor one[] = { { 0, 0, 1024, 768, true } };
	struct remote_monitor three[] = {
		{ 0, 0, 800, 600, true }, { 800, 0, 800, 600, false }, { 1600, 0, 800, 600, false },
	};
	struct remote_monitor_layout single, triple;
	char why[128];
	EXPECT(make(&single, one, 1, why) && make(&triple, three, 3, why), "layouts");

	struct remote_layout_plan p = remote_monitor_layout_plan(&single, false, true, 2);
	EXPECT(p.action == REMOTE_LAYOUT_PRIMARY_ONLY,
		"a single-monitor client keeps today's behaviour; made outputs stay");
	p = remote_monitor_layout_plan(&triple, false, false, 0);
	EXPECT(p.action == REMOTE_LAYOUT_PRIMARY_ONLY, "no headless backend: one output");
	p = remote_monitor_layout_plan(&triple, false, true, 0);
	EXPECT(p.action == REMOTE_LAYOUT_OUTPUTS && p.create == 2 && p.reuse == 0 &&
		p.remove == 0, "two outputs made: %d %d %d", p.reuse, p.create, p.remove);
	p = remote_monitor_layout_plan(&triple, true, true, 1);
	EXPECT(p.reuse == 1 && p.create == 1 && p.remove == 0, "one reused, one made");
	p = remote_monitor_layout_plan(&triple, false, true, 4);
	EXPECT(p.reuse == 2 && p.create == 0 && p.remove == 2, "two reused, two go");
	p = remote_monitor_layout_plan(&single, true, true, 2);
	EXPECT(p.action == REMOTE_LAYOUT_OUTPUTS && p.reuse == 0 && p.remove == 2,
		"a multi-monitor client down to one monitor: the others go");
}

static void test_equal_and_bounds(void) {
	struct remote_monitor a[] = { { 0, 0, 800, 600, true }, { 800, 0, 640, 480, false } };
	struct remote_monitor b[] = { { 0, 0, 800, 600, true }, { 800, 0, 640, 400, false } };
	struct remote_monitor_layout la, lb;
	char why[128];
	EXPECT(make(&la, a, 2, why) && make(&lb, b, 2, why), "layouts");
	EXPECT(remote_monitor_layout_equal(&la, &la), "equal to itself");
	EXPECT(!remote_monitor_layout_equal(&la, &lb), "a monitor's height differs");
	int x, y, w, h;
	remote_monitor_bounds(NULL, 0, &x, &y, &w, &h);
	EXPECT(x == 0 && y == 0 && w == 0 && h == 0, "no boxes");
	int boxes[] = { 10, 20, 100, 50, -5, 30, 10, 100 };
	remote_monitor_bounds(boxes, 2, &x, &y, &w, &h);
	EXPECT(x == -5 && y == 20 && w == 115 && h == 110, "%d,%d %dx%d", x, y, w, h);
}

int main(void) {
	test_two_side_by_side();
	test_primary_second_and_left();
	test_primary_not_at_origin();
	test_refused();
	test_plan();
	test_equal_and_bounds();
	return failures != 0;
}
