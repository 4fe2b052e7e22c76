// The tables played on this device, kept in IndexedDB (database "tiergarten", store "tables",
// by table id): each as the local table exports it (tiergarten/offline/table.py), its `record`
// the JSON `tiergarten replay` reads. Used by the worker (it saves every change and restores
// the tables after a reload) and by the page (the list of games, export and upload).
const DB = "tiergarten";
const STORE = "tables";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, work) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const result = work(tx.objectStore(STORE));
    tx.oncomplete = () => { db.close(); resolve(result.result ?? result); };
    tx.onerror = () => { db.close(); reject(tx.error); };
  });
}

export function keptTables() {
  return run("readonly", (store) => store.getAll());
}

export function keepTable(table) {
  return run("readwrite", (store) => store.put(table)).then(() => undefined);
}

// Marks a kept table (e.g. {uploaded: "<server table id>"}), keeping the rest as it is.
export async function markTable(id, fields) {
  const all = await keptTables();
  const table = all.find((t) => t.id === id);
  if (table) await keepTable({ ...table, ...fields });
}
