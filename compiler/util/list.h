/*
 * Intrusive doubly-linked lists (Linux's list_head, NIR's exec_list): the
 * node lives inside the element, so inserting and removing never allocate.
 *
 *	struct item { int v; struct list_node link; };
 *	struct list items;
 *	list_init(&items);
 *	list_add_tail(&items, &it->link);
 *	list_for_each_entry(struct item, it, &items, link) use(it->v);
 *
 * A list is a circular chain through a sentinel `head`; an empty list's head
 * points at itself.  A removed node has NULL links, so removing twice is a
 * bug that crashes early.
 */
#ifndef SHDB_UTIL_LIST_H
#define SHDB_UTIL_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_node {
	struct list_node *prev, *next;
};

struct list {
	struct list_node head;
};

#define container_of(ptr, T, member) ((T *)(void *)((char *)(ptr) - offsetof(T, member)))
#define list_entry(node, T, member) container_of(node, T, member)

static inline void list_init(struct list *l)
{
	l->head.prev = l->head.next = &l->head;
}

static inline bool list_empty(const struct list *l)
{
	return l->head.next == &l->head;
}

static inline bool list_is_head(const struct list *l, const struct list_node *n)
{
	return n == &l->head;
}

/* Insert `n` after `pos` (which may be the head). */
static inline void list_insert_after(struct list_node *pos, struct list_node *n)
{
	n->prev = pos;
	n->next = pos->next;
	pos->next->prev = n;
	pos->next = n;
}

static inline void list_insert_before(struct list_node *pos, struct list_node *n)
{
	list_insert_after(pos->prev, n);
}

static inline void list_add_tail(struct list *l, struct list_node *n)
{
	list_insert_before(&l->head, n);
}

static inline void list_add_head(struct list *l, struct list_node *n)
{
	list_insert_after(&l->head, n);
}

static inline void list_del(struct list_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->prev = n->next = NULL;
}

/* First and last nodes, or NULL when the list is empty. */
static inline struct list_node *list_first(const struct list *l)
{
	return list_empty(l) ? NULL : l->head.next;
}

static inline struct list_node *list_last(const struct list *l)
{
	return list_empty(l) ? NULL : l->head.prev;
}

static inline size_t list_length(const struct list *l)
{
	size_t n = 0;
	for (const struct list_node *p = l->head.next; p != &l->head; p = p->next)
		n++;
	return n;
}

/* Iterate nodes; the _safe form allows removing the current node. */
#define list_for_each(n, l) \
	for (struct list_node *n = (l)->head.next; n != &(l)->head; n = n->next)
#define list_for_each_safe(n, l) \
	for (struct list_node *n = (l)->head.next, *n##_next_ = n->next; \
	     n != &(l)->head; n = n##_next_, n##_next_ = n->next)

/* Iterate elements of type T linked through `member`. */
#define list_for_each_entry(T, pos, l, member) \
	for (T *pos = list_entry((l)->head.next, T, member); \
	     &pos->member != &(l)->head; \
	     pos = list_entry(pos->member.next, T, member))
#define list_for_each_entry_safe(T, pos, l, member) \
	for (T *pos = list_entry((l)->head.next, T, member), \
	       *pos##_next_ = list_entry(pos->member.next, T, member); \
	     &pos->member != &(l)->head; \
	     pos = pos##_next_, pos##_next_ = list_entry(pos->member.next, T, member))
#define list_for_each_entry_rev(T, pos, l, member) \
	for (T *pos = list_entry((l)->head.prev, T, member); \
	     &pos->member != &(l)->head; \
	     pos = list_entry(pos->member.prev, T, member))
#define list_for_each_entry_rev_safe(T, pos, l, member) \
	for (T *pos = list_entry((l)->head.prev, T, member), \
	       *pos##_prev_ = list_entry(pos->member.prev, T, member); \
	     &pos->member != &(l)->head; \
	     pos = pos##_prev_, pos##_prev_ = list_entry(pos->member.prev, T, member))

#endif
