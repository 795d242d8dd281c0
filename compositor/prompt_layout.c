/* See prompt_layout.h. */
#include "compositor/prompt_layout.h"

#define PANEL_WIDTH 460
#define PADDING 16
#define TITLE_HEIGHT 28
#define SUBTITLE_HEIGHT 22
#define ROW_HEIGHT 26
#define ROW_GAP 2
#define CHECKBOX_SIZE 16
#define BUTTON_WIDTH 120
#define BUTTON_HEIGHT 34
#define BUTTON_GAP 12
#define SECTION_GAP 10

static struct placement_box box(int x, int y, int width, int height) {
	return (struct placement_box){ x, y, width, height };
}

static bool inside(const struct placement_box *b, double x, double y) {
	return x >= b->x && y >= b->y && x < b->x + b->width && y < b->y + b->height;
}

void prompt_layout_compute(struct prompt_layout *layout, const struct placement_box *area,
		int n_choices, bool has_remember) {
	if (n_choices < 0) {
		n_choices = 0;
	}
	if (n_choices > PROMPT_MAX_CHOICES) {
		n_choices = PROMPT_MAX_CHOICES;
	}
	*layout = (struct prompt_layout){ .n_choices = n_choices, .has_remember = has_remember };

	int width = PANEL_WIDTH;
	if (width > area->width - 2 * PADDING) {
		width = area->width - 2 * PADDING;
	}
	if (width < 2 * BUTTON_WIDTH + BUTTON_GAP + 2 * PADDING) {
		width = 2 * BUTTON_WIDTH + BUTTON_GAP + 2 * PADDING;
	}
	int inner = width - 2 * PADDING;

	/* Stacked from the panel's top; the panel is moved to the center last. */
	int y = PADDING;
	layout->title = box(PADDING, y, inner, TITLE_HEIGHT);
	y += TITLE_HEIGHT;
	if (n_choices > 0) {
		layout->subtitle = box(PADDING, y, inner, SUBTITLE_HEIGHT);
		y += SUBTITLE_HEIGHT;
		for (int i = 0; i < n_choices; i++) {
			layout->choices[i] = box(PADDING, y, inner, ROW_HEIGHT);
			y += ROW_HEIGHT + ROW_GAP;
		}
	}
	y += SECTION_GAP;
	if (has_remember) {
		layout->remember = box(PADDING + 4, y + (ROW_HEIGHT - CHECKBOX_SIZE) / 2,
			CHECKBOX_SIZE, CHECKBOX_SIZE);
		int label_x = PADDING + 4 + CHECKBOX_SIZE + 4;
		layout->remember_label = box(label_x, y, width - PADDING - label_x, ROW_HEIGHT);
		y += ROW_HEIGHT + SECTION_GAP;
	}
	layout->allow = box(width - PADDING - BUTTON_WIDTH, y, BUTTON_WIDTH, BUTTON_HEIGHT);
	layout->deny = box(layout->allow.x - BUTTON_GAP - BUTTON_WIDTH, y, BUTTON_WIDTH,
		BUTTON_HEIGHT);
	y += BUTTON_HEIGHT + PADDING;

	int px = area->x + (area->width - width) / 2;
	int py = area->y + (area->height - y) / 2;
	if (py < area->y) {
		py = area->y;
	}
	layout->panel = box(px, py, width, y);
	struct placement_box *parts[] = {
		&layout->title, &layout->subtitle, &layout->remember,
		&layout->remember_label, &layout->deny, &layout->allow,
	};
	for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		parts[i]->x += px;
		parts[i]->y += py;
	}
	for (int i = 0; i < n_choices; i++) {
		layout->choices[i].x += px;
		layout->choices[i].y += py;
	}
}

struct prompt_hit prompt_layout_hit(const struct prompt_layout *layout, double x, double y) {
	if (inside(&layout->allow, x, y)) {
		return (struct prompt_hit){ PROMPT_HIT_ALLOW, -1 };
	}
	if (inside(&layout->deny, x, y)) {
		return (struct prompt_hit){ PROMPT_HIT_DENY, -1 };
	}
	if (layout->has_remember && (inside(&layout->remember, x, y) ||
			inside(&layout->remember_label, x, y))) {
		return (struct prompt_hit){ PROMPT_HIT_REMEMBER, -1 };
	}
	for (int i = 0; i < layout->n_choices; i++) {
		if (inside(&layout->choices[i], x, y)) {
			return (struct prompt_hit){ PROMPT_HIT_CHOICE, i };
		}
	}
	return (struct prompt_hit){ PROMPT_HIT_NONE, -1 };
}
