"""Model r's parameters copied into a resident network while its forward pass already runs.

A resident worker (pytorch_resident.py) that switches to a new round, or to a task of another
job, must load that round's parameters before it computes. Loading them all first puts the whole
copy on the task's critical path. PipeSwitch (Bai et al., OSDI '20) overlaps it with the
computation instead: the parameters go over layer by layer, in the order the forward pass uses
them, and each layer computes as soon as its own parameters have arrived. OverlappedLoad does
the same for any torch.nn.Module whose modules are registered in the order forward uses them
(nn.Sequential, torchvision's ResNets): a thread copies each module's tensors, on the GPU on a
side CUDA stream from pinned memory so that the copies run beside the kernels; a forward
pre-hook on each module waits for its module's tensors (on the GPU, the compute stream waits for
the copy's event, not the host). A module used before its turn in registration order only waits
longer; the result is the same. A network that reads a module's tensors without calling that
module (shared weights read through another module, functional code over module.weight) could
read them before they arrive: run it without pytorch_resident.py's --overlap-load.

The values are exactly those load_state_dict would put there: the same tensors, copied whole.
The file is read whole first (the sync step writes one state_dict); what overlaps is the copy
into the network, which on a GPU is the host-to-device transfer.

Use:
    with OverlappedLoad(torch, model, state):   # state: the loaded state_dict, on the CPU
        ... forward, backward ...                # waits for each module's tensors as it goes
    # on exit every tensor is in place (and the hooks gone), also if the task failed
"""

import threading


class OverlappedLoad:
    """Copies ``state`` into ``model`` module by module while the caller computes."""

    def __init__(self, torch, model, state):
        self._torch = torch
        own = model.state_dict(keep_vars=True)
        missing = sorted(set(own) - set(state))
        unexpected = sorted(set(state) - set(own))
        shapes = [k for k in own if k in state and tuple(own[k].shape) != tuple(state[k].shape)]
        if missing or unexpected or shapes:
            # what load_state_dict(strict=True) refuses, refused before anything is copied
            raise ValueError("model state does not fit the network: missing %s, unexpected %s,"
                             " other shapes %s" % (missing, unexpected, shapes))
        self._groups = []  # (module, [(target, source)], done event, cuda event or None)
        seen = set()
        for prefix, module in model.named_modules():
            pairs = []
            for name, _ in list(module.named_parameters(recurse=False)) + list(
                    module.named_buffers(recurse=False)):
                key = prefix + "." + name if prefix else name
                if key in own and key not in seen:
                    seen.add(key)
                    pairs.append((own[key], state[key]))
            if pairs:
                self._groups.append([module, pairs, threading.Event(), None])
        # a tensor that state_dict lists but no module owns directly (none in torch.nn's
        # modules) goes with the last group
        rest = [(own[k], state[k]) for k in own if k not in seen]
        if rest:
            if not self._groups:
                self._groups.append([model, [], threading.Event(), None])
            self._groups[-1][1].extend(rest)
        self._error = None
        self._hooks = []
        self._thread = None
        self._device = next((t.device for t, _ in (p for g in self._groups for p in g[1])),
                            None)

    def __enter__(self):
        for g in self._groups:
            self._hooks.append(g[0].register_forward_pre_hook(self._waiter(g)))
        self._thread = threading.Thread(target=self._copy, name="overlapped-load", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.finish()
        return False

    def finish(self):
        """Waits for every copy and removes the hooks; raises the copy's error, if any."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        for h in self._hooks:
            h.remove()
        self._hooks = []
        side = getattr(self, "_side", None)
        if side is not None:
            self._torch.cuda.current_stream(self._device).wait_stream(side)
        if self._error is not None:
            raise self._error

    def _cuda(self):
        return self._device is not None and self._device.type == "cuda"

    def _waiter(self, group):
        def wait(module, inputs):
            group[2].wait()
            if self._error is not None:
                raise self._error
            if group[3] is not None:
                self._torch.cuda.current_stream(self._device).wait_event(group[3])
        return wait

    def _copy(self):
        torch = self._torch
        try:
            with torch.no_grad():  # grad mode is per thread
                if self._cuda():
                    self._side = torch.cuda.Stream(self._device)
                    self._pinned = []  # alive until the copies that read them are done
                    with torch.cuda.stream(self._side):
                        for g in self._groups:
                            for target, source in g[1]:
                                src = source.pin_memory()
                                self._pinned.append(src)
                                target.copy_(src, non_blocking=True)
                            g[3] = torch.cuda.Event()
                            g[3].record(self._side)
                            g[2].set()
                else:
                    for g in self._groups:
                        for target, source in g[1]:
                            target.copy_(source)
                        g[2].set()
        except BaseException as e:  # every waiter must wake, and say why
            self._error = e
        finally:
            for g in self._groups:
                g[2].set()
