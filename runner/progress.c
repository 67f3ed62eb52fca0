#include "runner/progress.h"

#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void progress_init(struct progress *p, size_t total, size_t before, bool enabled)
{
	*p = (struct progress){ .enabled = enabled && isatty(STDERR_FILENO), .total = total,
				.before = before, .start_ms = now_ms() };
}

static int columns(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

void progress_update(struct progress *p, size_t done, size_t failures, bool force)
{
	if (!p->enabled)
		return;
	uint64_t now = now_ms();
	if (!force && p->drawn && now - p->last_ms < 100)
		return;
	p->last_ms = now;
	p->drawn = true;

	double secs = (double)(now - p->start_ms) / 1000.0;
	size_t session = done > p->before ? done - p->before : 0;
	double rate = secs > 0.05 ? (double)session / secs : 0;
	char eta[32] = "--:--";
	if (rate > 0) {
		unsigned long left = (unsigned long)((double)(p->total - done) / rate + 0.5);
		snprintf(eta, sizeof(eta), "%lu:%02lu", left / 60, left % 60);
	}
	char tail[128];
	int pct = p->total ? (int)(done * 100 / p->total) : 100;
	snprintf(tail, sizeof(tail), " %zu/%zu %3d%% %6.0f files/s  ETA %s  failures %zu",
		 done, p->total, pct, rate, eta, failures);

	int bar = columns() - (int)sizeof("[]") - 45;
	bar = bar > 40 ? 40 : bar < 10 ? 10 : bar;
	int fill = p->total ? (int)((double)bar * (double)done / (double)p->total) : bar;
	fputs("\r[", stderr);
	for (int i = 0; i < bar; i++)
		fputc(i < fill ? '#' : '.', stderr);
	fprintf(stderr, "]%s\033[K", tail);
	fflush(stderr);
}

void progress_end(struct progress *p)
{
	if (p->enabled && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->drawn = false;
}
