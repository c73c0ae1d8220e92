/*
 * A stand-in for bcryptprimitives.dll, which Wine 8.0 (Debian bookworm)
 * lacks: the Go runtime takes ProcessPrng from it at startup and throws
 * "bcryptprimitives.dll not found" without it (runtime/os_windows.go,
 * loadOptionalSyscalls). The same gap broke Rust's tests under Wine:
 * https://github.com/rust-lang/rust/pull/121337. Here ProcessPrng is
 * served by RtlGenRandom (SystemFunction036), which Wine implements. For
 * running the Windows test binaries under Wine in CI only.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
