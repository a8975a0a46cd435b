/* The source of seeds/elf_symbols/libuv-mini-{symtab,stripped}: a tiny stand-in
 * for libuv's threadpool.c (its statics and functions by name), so the fuzzer
 * starts from an ELF file that sluice scope reads symbols from. Built with
 *   gcc -O0 -shared -fPIC -nostdlib -Wl,-z,max-page-size=0x10 \
 *       -Wl,-z,common-page-size=0x10 -Wl,-z,norelro -Wl,--build-id=none \
 *       -o libuv-mini-symtab threadpool.c && strip -o libuv-mini-stripped libuv-mini-symtab
 */
/* A tiny stand-in for libuv's threadpool.c: its statics and functions by name. */
static int cond, mutex, nthreads, initialized;
static void *threads[4];
static void *wq[2], *exit_message[2], *run_slow_work_message[2], *slow_io_pending_wq[2];
static unsigned slow_io_work_running;
static void worker(void *arg) { (void)arg; nthreads++; cond++; mutex++; threads[0] = wq; slow_io_work_running++; exit_message[0] = run_slow_work_message; slow_io_pending_wq[0] = 0; initialized = 1; }
__attribute__((visibility("hidden"))) void uv__work_submit(void *w) { worker(w); }
__attribute__((visibility("hidden"))) void uv__work_done(void *h) { worker(h); }
int uv_queue_work(void *l, void *r, void *a, void *b) { uv__work_submit(r); (void)l; (void)a; (void)b; return 0; }
