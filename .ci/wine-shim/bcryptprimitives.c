/*
 * bcryptprimitives.dll for wine 8.0 (Debian 12), which lacks it. Go's Windows runtime takes its
 * random bytes from ProcessPrng in this DLL (since Go 1.22) and dies at start without it. This
 * shim exports ProcessPrng and fills the buffer from advapi32's SystemFunction036
 * (RtlGenRandom), which wine has. It is for CI under wine only, never for a real Windows.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
		if (!SystemFunction036(data, chunk))
			return FALSE;
		data += chunk;
		length -= chunk;
	}
	return TRUE;
}
