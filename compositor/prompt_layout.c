/* SPDX-License-Identifier: MIT */
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
/* Between a row's edge and its thumbnail, and the thumbnail and the label. */
#define THUMBNAIL_MARGIN 3
/* Kept clear above and below the panel when sizing thumbnails. */
#define AREA_MARGIN 16

static struct placement_box box(int x, int y, int width, int height) {
	return (struct placement_box){ x, y, width, height };
}

static bool inside(const struct placement_box *b, double x, double y) {
	return x >= b->x && y >= b->y && x < b->x + b->width && y < b->y + b->height;
}

/* The panel's height but for the subtitle and the rows. */
static int fixed_height(bool has_remember) {
	int y = PADDING + TITLE_HEIGHT + SECTION_GAP;
	if (has_remember) {
		y += ROW_HEIGHT + SECTION_GAP;
	}
	return y + BUTTON_HEIGHT + PADDING;
}

/* The tallest thumbnail whose rows still fit in area, or 0 when none does. */
static int thumbnail_height(const struct placement_box *area, int n_choices,
		bool has_remember) {
	if (n_choices <= 0) {
		return 0;
	}
	int room = area->height - 2 * AREA_MARGIN - fixed_height(has_remember) -
		SUBTITLE_HEIGHT;
	int height = room / n_choices - ROW_GAP - 2 * THUMBNAIL_MARGIN;
	if (height > PROMPT_THUMBNAIL_MAX_HEIGHT) {
		height = PROMPT_THUMBNAIL_MAX_HEIGHT;
	}
	return height < PROMPT_THUMBNAIL_MIN_HEIGHT ? 0 : height;
}

void prompt_layout_compute(struct prompt_layout *layout, const struct placement_box *area,
		int n_choices, bool has_remember, bool want_thumbnails) {
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
	int thumb_h = want_thumbnails ? thumbnail_height(area, n_choices, has_remember) : 0;
	int thumb_w = thumb_h * 8 / 5;
	int row_height = ROW_HEIGHT;
	if (thumb_h > 0 && thumb_h + 2 * THUMBNAIL_MARGIN > row_height) {
		row_height = thumb_h + 2 * THUMBNAIL_MARGIN;
	}
	layout->has_thumbnails = thumb_h > 0;

	/* Stacked from the panel's top; the panel is moved to the center last. */
	int y = PADDING;
	layout->title = box(PADDING, y, inner, TITLE_HEIGHT);
	y += TITLE_HEIGHT;
	if (n_choices > 0) {
		layout->subtitle = box(PADDING, y, inner, SUBTITLE_HEIGHT);
		y += SUBTITLE_HEIGHT;
		for (int i = 0; i < n_choices; i++) {
			layout->choices[i] = box(PADDING, y, inner, row_height);
			layout->labels[i] = layout->choices[i];
			if (layout->has_thumbnails) {
				layout->thumbnails[i] = box(PADDING + THUMBNAIL_MARGIN,
					y + (row_height - thumb_h) / 2, thumb_w, thumb_h);
				int label_x = PADDING + 2 * THUMBNAIL_MARGIN + thumb_w;
				layout->labels[i] = box(label_x, y, PADDING + inner - label_x,
					row_height);
			}
			y += row_height + ROW_GAP;
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
		struct placement_box *row_parts[] = {
			&layout->choices[i], &layout->labels[i], &layout->thumbnails[i],
		};
		for (unsigned j = 0; j < sizeof(row_parts) / sizeof(row_parts[0]); j++) {
			row_parts[j]->x += px;
			row_parts[j]->y += py;
		}
	}
	if (!layout->has_thumbnails) {
		for (int i = 0; i < n_choices; i++) {
			layout->thumbnails[i] = box(0, 0, 0, 0);
		}
	}
}

struct placement_box prompt_layout_thumbnail_picture(const struct placement_box *thumbnail,
		int width, int height) {
	int room_w = thumbnail->width - 2 * PROMPT_THUMBNAIL_FRAME;
	int room_h = thumbnail->height - 2 * PROMPT_THUMBNAIL_FRAME;
	if (width <= 0 || height <= 0 || room_w <= 0 || room_h <= 0) {
		return box(thumbnail->x, thumbnail->y, 0, 0);
	}
	int w = width < room_w ? width : room_w;
	int h = height < room_h ? height : room_h;
	return box(thumbnail->x + (thumbnail->width - w) / 2,
		thumbnail->y + (thumbnail->height - h) / 2, w, h);
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
