// Shared widgets of the admin and expert consoles (spec section 2, "Shared widgets").

export { AppDialog } from './AppDialog';
export { ButtonGroup, type ButtonItem } from './ButtonGroup';
export { CardTitle } from './CardTitle';
export { DataTable, EMPTY_CELL, isEmptyCell, withEmptyCells, useMinimumDuration } from './DataTable';
export { KitTabs, type KitTabItem } from './KitTabs';
export { LabelValue } from './LabelValue';
export { LoadMoreSelect, type CodeName } from './LoadMoreSelect';
export { Pager } from './Pager';
export { SearchForm } from './SearchForm';
export { SearchTable, type PageParams } from './SearchTable';
export { SideDrawer } from './SideDrawer';
