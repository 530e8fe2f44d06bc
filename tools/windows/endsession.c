/* endsession.c - a log-off as Windows delivers it to one program, for
 * tools/windows/session_end.sh (built there with mingw, run under Wine).
 *
 *   endsession.exe TITLE [--force] [--wait SECONDS] [--grace SECONDS]
 *
 * Waits (up to --wait, default 30 s) for a top-level window whose title
 * starts with TITLE, then does what Windows does at a log-off to a program
 * that is still running:
 *   1. WM_QUERYENDSESSION (lParam ENDSESSION_LOGOFF), unless --force (a
 *      forced log-off or shutdown skips the question);
 *   2. WM_ENDSESSION (wParam TRUE) when the window is still there;
 *   3. ends the process (TerminateProcess) if it has not ended by itself
 *      within --grace (default 1 s; none with --force): once WM_ENDSESSION
 *      is answered, Windows may end it at any moment.
 * Prints what happened, one line each ("query: yes", "end: sent",
 * "process: ended by itself" / "process: terminated"), and to standard
 * error how long the process took to end by itself; exit status 0, or 1
 * when no such window appeared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static wchar_t g_title[512];
static HWND g_found;

static BOOL CALLBACK look(HWND w, LPARAM lp)
{
    (void)lp;
    wchar_t t[512];
    int n = GetWindowTextW(w, t, 512);
    size_t want = wcslen(g_title);
    if (n > 0 && (size_t)n >= want && wcsncmp(t, g_title, want) == 0) {
        g_found = w;
        return FALSE;
    }
    return TRUE;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: endsession.exe TITLE [--force] [--wait SECONDS]\n");
        return 2;
    }
    int force = 0, wait_s = 30, grace_s = 1;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--force") == 0)
            force = 1;
        else if (strcmp(argv[i], "--wait") == 0 && i + 1 < argc)
            wait_s = atoi(argv[++i]);
        else if (strcmp(argv[i], "--grace") == 0 && i + 1 < argc)
            grace_s = atoi(argv[++i]);
    }
    if (!MultiByteToWideChar(CP_UTF8, 0, argv[1], -1, g_title, 512)) return 2;
    for (int k = 0; k < wait_s * 10 && !g_found; k++) {
        EnumWindows(look, 0);
        if (!g_found) Sleep(100);
    }
    if (!g_found) {
        printf("window: not found\n");
        return 1;
    }
    /* A window that has just opened may still be busy with its first frame:
     * wait until it answers (a message loop that runs), as a session that
     * has been open a while would. */
    DWORD_PTR answer = 0;
    for (int k = 0; k < wait_s && !SendMessageTimeoutW(g_found, WM_NULL, 0, 0, SMTO_NORMAL, 1000,
                                                        &answer);
         k++)
        ;
    DWORD pid = 0;
    GetWindowThreadProcessId(g_found, &pid);
    HANDLE proc = OpenProcess(PROCESS_TERMINATE | SYNCHRONIZE, FALSE, pid);
    printf("window: found (process %lu)\n", (unsigned long)pid);
    if (!force) {
        if (SendMessageTimeoutW(g_found, WM_QUERYENDSESSION, 0, ENDSESSION_LOGOFF,
                                SMTO_NORMAL, 10000, &answer))
            printf("query: %s\n", answer ? "yes" : "no");
        else
            printf("query: no answer\n");
    }
    if (IsWindow(g_found) &&
        SendMessageTimeoutW(g_found, WM_ENDSESSION, TRUE, ENDSESSION_LOGOFF, SMTO_NORMAL, 10000,
                            &answer))
        printf("end: sent\n");
    else
        printf("end: no answer (window gone)\n");
    fflush(stdout);
    if (proc) {
        DWORD t0 = GetTickCount();
        if (WaitForSingleObject(proc, force ? 0 : 1000 * (DWORD)grace_s) == WAIT_OBJECT_0) {
            printf("process: ended by itself\n");
            fprintf(stderr, "endsession: ended %lu ms after WM_ENDSESSION\n",
                    (unsigned long)(GetTickCount() - t0));
        } else {
            TerminateProcess(proc, 1);
            WaitForSingleObject(proc, 5000);
            printf("process: terminated\n");
        }
        CloseHandle(proc);
    }
    return 0;
}
