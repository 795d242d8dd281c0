/* SPDX-License-Identifier: MIT */
/* Unit tests for the table of addresses that browsers came from. */

#include <stdio.h>
#include <string.h>
#include "remote/vnc/vnc_browser_hosts.h"
#include "expect.h"

#define MEMORY_MS 60000

int main(void) {
	struct vnc_browser_host hosts[2] = {0};
	EXPECT(!vnc_browser_hosts_has(hosts, 2, "192.0.2.1", MEMORY_MS), "an empty table");
	EXPECT(!vnc_browser_hosts_has(hosts, 2, "", MEMORY_MS), "a free slot is no host");

	vnc_browser_hosts_remember(hosts, 2, "192.0.2.1");
	vnc_browser_hosts_remember(hosts, 2, "192.0.2.2");
	EXPECT(vnc_browser_hosts_has(hosts, 2, "192.0.2.1", MEMORY_MS), "the first");
	EXPECT(vnc_browser_hosts_has(hosts, 2, "192.0.2.2", MEMORY_MS), "the second");
	EXPECT(!vnc_browser_hosts_has(hosts, 2, "192.0.2.2", 0), "forgotten at once");

	/* A third: the oldest gives way. */
	vnc_browser_hosts_remember(hosts, 2, "192.0.2.3");
	EXPECT(!vnc_browser_hosts_has(hosts, 2, "192.0.2.1", MEMORY_MS), "the oldest went");
	EXPECT(vnc_browser_hosts_has(hosts, 2, "192.0.2.2", MEMORY_MS), "the second stays");
	EXPECT(vnc_browser_hosts_has(hosts, 2, "192.0.2.3", MEMORY_MS), "the third");

	/* Seen again, a host keeps its own slot: the other one gives way. */
	vnc_browser_hosts_remember(hosts, 2, "192.0.2.2");
	EXPECT(strcmp(hosts[0].host, hosts[1].host) != 0, "one slot a host");
	vnc_browser_hosts_remember(hosts, 2, "192.0.2.4");
	EXPECT(vnc_browser_hosts_has(hosts, 2, "192.0.2.2", MEMORY_MS), "seen again, kept");
	EXPECT(!vnc_browser_hosts_has(hosts, 2, "192.0.2.3", MEMORY_MS), "the older went");
	EXPECT(vnc_browser_hosts_has(hosts, 2, "192.0.2.4", MEMORY_MS), "the newest");

	return expect_report();
}
