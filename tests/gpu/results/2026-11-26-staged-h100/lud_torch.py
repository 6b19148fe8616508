import torch
torch.backends.cuda.matmul.allow_tf32 = False
n = 2048
a, l, u = (torch.rand(n, n, device="cuda") for _ in range(3))
f = lambda: a - l @ u
for _ in range(5): f()
torch.cuda.synchronize()
ts = []
for _ in range(30):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); f(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
ts.sort()
print(f"torch a - l @ u (2048, TF32 off): median {ts[len(ts)//2]:.4f} ms")
